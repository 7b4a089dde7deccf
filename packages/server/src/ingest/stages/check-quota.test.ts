import { afterEach, describe, expect, it } from 'vitest'
import {
  monthlyPageviews,
  NOW,
  openStageDeps,
  SITE_ID,
  type StageDeps,
  stageDraft,
} from '../draft.fixture.js'
import { createMemoryPageviewQuota } from '../state/pageview-quota.js'
import { checkQuota } from './check-quota.js'

describe('checkQuota', () => {
  let deps: StageDeps | undefined
  afterEach(() => deps?.close())

  /** Deps whose events store holds `pageviews` per UTC month ('YYYY-MM'). */
  const withPageviews = async (pageviews: Record<string, number>) => {
    const events = monthlyPageviews(pageviews)
    deps = await openStageDeps({ quota: createMemoryPageviewQuota(events) })
    return { deps, events }
  }
  const over = { ok: false, reason: { kind: 'over_quota' } }

  it('lets a site without a limit through without counting anything', async () => {
    const { deps, events } = await withPageviews({ '2026-03': 1_000_000 })
    expect(await checkQuota(stageDraft(), deps)).toEqual({ ok: true })
    expect(events.queries).toBe(0)
  })

  it('lets events through below the limit and refuses them once the month has the limit', async () => {
    const { deps } = await withPageviews({ '2026-03': 99 })
    const draft = () => stageDraft({ site: { monthlyPageviewLimit: 100 } })
    expect(await checkQuota(draft(), deps)).toEqual({ ok: true })
    await deps.quota.add(SITE_ID, 1, NOW)
    expect(await checkQuota(draft(), deps)).toEqual(over)
    // Every type counts against it once the limit is reached, not only pageviews.
    expect(
      await checkQuota(stageDraft({ site: { monthlyPageviewLimit: 100 }, body: { type: 'error' } }), deps),
    ).toEqual(over)
  })

  it('counts the UTC month of the event: a full February does not block March 1st, 00:00 UTC', async () => {
    const { deps } = await withPageviews({ '2026-02': 100, '2026-03': 0 })
    const at = (iso: string) => stageDraft({ site: { monthlyPageviewLimit: 100 }, now: Date.parse(iso) })
    expect(await checkQuota(at('2026-02-28T23:59:59.999Z'), deps)).toEqual(over)
    expect(await checkQuota(at('2026-03-01T00:00:00.000Z'), deps)).toEqual({ ok: true })
  })
})
