/**
 * One session boundary, live and imported, through the real app: a visitor's second pageview
 * 29:59, 30:00 or 30:01 after the first joins its session for the first two and starts a new one for
 * the third (more than 30 minutes without an event ends a session). The expected session counts come
 * from the rule applied in plain code over the gaps sent. Also what docs/import-export.md says of a
 * second import: it does not join sessions an earlier import stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const SECOND = 1000
const GAPS = [29 * 60 * SECOND + 59 * SECOND, 30 * 60 * SECOND, 30 * 60 * SECOND + SECOND]
const T0 = Date.parse('2026-02-10T10:00:00.000Z')
const RANGE = 'start_date=2026-02-01&end_date=2026-02-28'

/** Sessions of one visitor with two events `gap` apart, by the documented rule. */
const sessionsFor = (gap: number) => (gap <= 30 * 60 * SECOND ? 1 : 2)

describe('the session boundary at 30 minutes, live and imported', () => {
  let t: TestInstance
  let now = T0
  let site: Site
  let cookie: string
  let apiKey: string

  const sessions = async (filters: unknown[]) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${site.siteId}/stats?${RANGE}&compare=none&filters=${encodeURIComponent(JSON.stringify(filters))}`,
      headers: { cookie },
    })
    expect(response.statusCode, response.body).toBe(200)
    return response.json().data.current.sessions as number
  }

  const importLines = async (lines: Record<string, unknown>[]) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/import`,
      headers: { cookie, 'content-type': 'application/x-ndjson' },
      payload: `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`,
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({ imported: lines.length, rejectedCount: 0 })
  }

  beforeAll(async () => {
    t = await openTestInstance({ clock: () => now })
    const seeded = await t.seed()
    site = seeded.site
    cookie = seeded.cookie
    apiKey = seeded.apiKey
    for (const [i, gap] of GAPS.entries()) {
      for (const at of [T0 + i * 3_600_000, T0 + i * 3_600_000 + gap]) {
        now = at
        const response = await t.track(site, { user_id: `live-${gap}`, pathname: '/live' }, { apiKey })
        expect(response.statusCode, response.body).toBe(200)
      }
    }
    await t.services.buffer.flush()
    now = Date.parse('2026-03-01T12:00:00.000Z')
    await importLines(
      GAPS.flatMap((gap, i) =>
        [T0 + i * 3_600_000, T0 + i * 3_600_000 + gap].map((at) => ({
          timestamp: new Date(at).toISOString(),
          pathname: '/imported',
          hostname: 'example.com',
          user_id: `imported-${gap}`,
        })),
      ),
    )
  }, 120_000)
  afterAll(() => t?.close())

  it.each(GAPS)('a gap of %d ms: live tracking and the import make the same sessions', async (gap) => {
    for (const source of ['live', 'imported']) {
      const count = await sessions([{ parameter: 'pathname', type: 'equals', value: [`/${source}`] }])
      // Each visitor's own sessions: the filter on the pathname keeps only this source's visitors.
      const own = await t.app.inject({
        method: 'GET',
        url: `/api/sites/${site.siteId}/sessions?${RANGE}&limit=100&filters=${encodeURIComponent(
          JSON.stringify([{ parameter: 'pathname', type: 'equals', value: [`/${source}`] }]),
        )}`,
        headers: { cookie },
      })
      expect(own.statusCode, own.body).toBe(200)
      const listed = (own.json().data as { user_id: string }[]).filter(
        (s) => s.user_id === `${source}-${gap}`,
      )
      expect({ source, gap, sessions: listed.length }).toEqual({ source, gap, sessions: sessionsFor(gap) })
      expect(count).toBe(GAPS.reduce((sum, g) => sum + sessionsFor(g), 0))
    }
  })

  it('does not join a visitor sessions stored by an earlier import (as documented)', async () => {
    const at = (time: string) => `2026-02-20T${time}:00.000Z`
    const line = (time: string) => ({
      timestamp: at(time),
      pathname: '/twice',
      hostname: 'example.com',
      user_id: 'twice',
    })
    await importLines([line('10:00'), line('10:05')])
    await importLines([line('10:10')])
    expect(await sessions([{ parameter: 'pathname', type: 'equals', value: ['/twice'] }])).toBe(2)
  })
})
