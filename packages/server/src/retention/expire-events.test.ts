/**
 * The retention pass on real stores (SQLite + chDB, PostgreSQL + chDB): events written at past
 * timestamps straight into the events store, one pass at a fixed instant, and what remains per site.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countSiteEvents } from '../query/site-events.js'
import type { Site } from '../sites/site.js'
import { eventRow } from '../storage/events/event-row.fixture.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import { expireEvents, RETENTION_ACTOR } from './expire-events.js'

/** The pass runs at 2026-06-15 10:00 UTC: 30 days keep events from 2026-05-16 00:00 UTC on. */
const NOW = Date.parse('2026-06-15T10:00:00.000Z')
const clock = () => NOW
const timestamps = [
  '2025-01-01T00:00:00.000Z', // older than a year
  '2026-05-15T23:59:59.999Z', // the last instant before the 30-day cutoff
  '2026-05-16T00:00:00.000Z', // the cutoff itself: kept
  '2026-06-15T09:00:00.000Z', // today
]

describe.each([
  ['SQLite + chDB', false],
  ['PostgreSQL + chDB', true],
])('retention on %s', (_name, postgres) => {
  let t: TestInstance
  let owner: { cookie: string; userId: string }
  let organizationId: string

  beforeAll(async () => {
    t = await openTestInstance({ postgres, workers: false })
    owner = await t.signUp()
    organizationId = await t.createOrganization(owner.cookie)
  })
  afterAll(() => t.close())

  /** A site holding one event at each of `timestamps`, with `retentionDays` set through the API. */
  async function siteWithEvents(retentionDays: number | null): Promise<Site> {
    const site = await t.createSite(owner.cookie, organizationId)
    if (retentionDays !== null) {
      const put = await t.app.inject({
        method: 'PUT',
        url: `/api/sites/${site.siteId}/config`,
        headers: { cookie: owner.cookie },
        payload: { retentionDays },
      })
      expect(put.statusCode, put.body).toBe(200)
    }
    await t.services.events.insert(
      timestamps.map((timestamp) => eventRow({ site_id: site.siteId, timestamp })),
    )
    return site
  }
  const remaining = (site: Site) => countSiteEvents(t.services.events, site.siteId)
  const expiredAudit = async (site: Site) =>
    (
      await t.services.metadata.db
        .selectFrom('audit_log')
        .select(['actor_user_id', 'details'])
        .where('site_id', '=', site.siteId)
        .where('action', '=', 'events.expired')
        .execute()
    ).map((row) => ({ actor: row.actor_user_id, details: JSON.parse(row.details) }))

  it("deletes exactly each site's expired events, audits the count, and leaves sites without a period alone", async () => {
    const month = await siteWithEvents(30)
    const forever = await siteWithEvents(null)
    const deps = { db: t.services.metadata.db, events: t.services.events, clock }

    const result = await expireEvents({ ...deps, defaultDays: null })
    expect(result.filter((r) => r.siteId === month.siteId || r.siteId === forever.siteId)).toEqual([
      { siteId: month.siteId, retentionDays: 30, cutoff: '2026-05-16T00:00:00.000Z', deleted: 2 },
    ])
    expect(await remaining(month)).toBe(2)
    expect(await remaining(forever)).toBe(4)
    expect(await expiredAudit(month)).toEqual([
      {
        actor: RETENTION_ACTOR,
        details: { retentionDays: 30, cutoff: '2026-05-16T00:00:00.000Z', deleted: 2 },
      },
    ])
    expect(await expiredAudit(forever)).toEqual([])

    // A second pass the same day finds nothing more, and audits nothing.
    await expireEvents({ ...deps, defaultDays: null })
    expect(await remaining(month)).toBe(2)
    expect(await expiredAudit(month)).toHaveLength(1)

    // The operator's default applies to sites without their own period only.
    const byDefault = await expireEvents({ ...deps, defaultDays: 365 })
    expect(byDefault.find((r) => r.siteId === forever.siteId)).toEqual({
      siteId: forever.siteId,
      retentionDays: 365,
      cutoff: '2025-06-15T00:00:00.000Z',
      deleted: 1,
    })
    expect(await remaining(forever)).toBe(3)
    expect(await remaining(month)).toBe(2)
  })
})
