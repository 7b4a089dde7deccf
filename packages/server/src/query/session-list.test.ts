/**
 * The session list on real chDB with the fixture of `report-data.fixture.ts`, narrowed to sessions
 * with a session replay recording: SQL pinned, a live recording kept, an expired one and another
 * site's left out, and `total` counting the narrowed list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventsStore } from '../storage/events/events-store.js'
import { marchScope, openReportStore, SITE } from './report-data.fixture.js'
import { compileSessionList, querySessionList } from './session-list.js'

let store: Awaited<ReturnType<typeof openReportStore>>
let events: EventsStore
const DAY_MS = 86_400_000

/** One stored batch of `sessionId` on `siteId`, expiring `expiresInMs` from now. */
const recording = (siteId: number, sessionId: string, expiresInMs: number) => {
  const payload = Buffer.from(JSON.stringify({ events: [{ type: 4, timestamp: 1 }] }))
  return events.insertReplay([
    {
      site_id: siteId,
      session_id: sessionId,
      sequence: 0,
      timestamp: '2026-03-10T10:00:00.000Z',
      received_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + expiresInMs).toISOString(),
      bytes: payload.length,
      encoding: 'json',
      payload,
    },
  ])
}

beforeAll(async () => {
  store = await openReportStore()
  events = store.events
  await recording(SITE, 's1', 30 * DAY_MS)
  await recording(SITE, 's3', -DAY_MS)
  await recording(8, 's2', 30 * DAY_MS)
})
afterAll(() => store.close())

describe('compileSessionList', () => {
  it('pins the replay condition on the grouped events', () => {
    const { sql, params } = compileSessionList(marchScope(), { onlyReplayed: true })
    expect(sql.split('\n')[3]).toBe(
      "WHERE site_id = {site:UInt32} AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')} " +
        'AND session_id IN (SELECT session_id FROM replay WHERE site_id = {site:UInt32} AND expires_at > now())',
    )
    expect(params).toEqual({
      site: SITE,
      from: '2026-03-01 00:00:00.000',
      to: '2026-04-01 00:00:00.000',
      limit: 50,
      offset: 0,
    })
    expect(compileSessionList(marchScope()).sql).not.toContain('replay')
  })
})

describe('querySessionList', () => {
  it('keeps only sessions with a live recording of the site, and counts them', async () => {
    const all = await querySessionList(events, marchScope())
    expect(all.total).toBeGreaterThan(2)
    const replayed = await querySessionList(events, marchScope(), { onlyReplayed: true })
    expect(replayed.total).toBe(1)
    expect(replayed.data.map((session) => session.session_id)).toEqual(['s1'])
  })
})
