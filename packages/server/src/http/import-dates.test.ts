/**
 * Import refuses dates and times that do not exist (2026-02-30, 2025-02-29, hour 24, minute 60, ...)
 * instead of rolling them over to another day, in each form it takes: raw NDJSON lines, exported lines
 * and Umami CSV rows, each refusal numbered and naming the field; the real app on SQLite + chDB.
 */
import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const NOW = Date.parse('2026-11-20T12:00:00.000Z')

describe('import of impossible calendar dates', () => {
  let t: TestInstance
  let owner: Awaited<ReturnType<TestInstance['seed']>>

  const importBody = (siteId: number, body: string, type: string, query = '') =>
    t.app.inject({
      method: 'POST',
      url: `/api/sites/${siteId}/import${query}`,
      headers: { cookie: owner.cookie, 'content-type': type },
      payload: body,
    })
  const storedDays = async (siteId: number, from: string, to: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${siteId}/events?start_date=${from}&end_date=${to}&limit=100`,
      headers: { cookie: owner.cookie },
    })
    expect(response.statusCode, response.body).toBe(200)
    return (response.json().data as { timestamp: string; pathname: string }[])
      .map((e) => `${e.timestamp.slice(0, 10)} ${e.pathname}`)
      .sort()
  }

  beforeAll(async () => {
    t = await openTestInstance({ clock: () => NOW })
    owner = await t.seed()
  }, 60_000)
  afterAll(() => t?.close())

  it('rejects raw lines whose timestamp does not exist, by line, and stores the real dates', async () => {
    const site = await t.createSite(owner.cookie, owner.organizationId, 'raw.example.com')
    const line = (timestamp: string, pathname: string) =>
      JSON.stringify({ timestamp, pathname, user_id: 'u' })
    const body = [
      line('2026-02-28T10:00:00Z', '/feb-28'),
      line('2026-02-30T00:00:00Z', '/feb-30'),
      line('2026-04-31T12:00:00+02:00', '/apr-31'),
      line('2025-02-29T08:00:00Z', '/feb-29-2025'),
      line('2024-02-29T08:00:00Z', '/feb-29-2024'),
      line('2026-03-01T24:00:00Z', '/hour-24'),
      line('2026-03-01T10:60:00Z', '/minute-60'),
      line('2026-03-01T10:00:00+25:00', '/offset-25'),
    ].join('\n')
    const response = await importBody(site.siteId, body, 'application/x-ndjson')
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toEqual({
      success: true,
      imported: 2,
      dropped: {},
      rejectedCount: 6,
      rejected: [
        {
          line: 2,
          error:
            'timestamp: must be a date and time that exist: 2026-02-30 is not a date (February 2026 has 28 days)',
        },
        {
          line: 3,
          error:
            'timestamp: must be a date and time that exist: 2026-04-31 is not a date (April 2026 has 30 days)',
        },
        {
          line: 4,
          error:
            'timestamp: must be a date and time that exist: 2025-02-29 is not a date (February 2025 has 28 days)',
        },
        { line: 6, error: 'timestamp: must be a date and time that exist: hour 24 does not exist (00-23)' },
        { line: 7, error: 'timestamp: must be a date and time that exist: minute 60 does not exist (00-59)' },
        {
          line: 8,
          error:
            'timestamp: must be an ISO 8601 date-time with Z or an offset: the offset must lie within ±23:59',
        },
      ],
    })
    // Nothing was rolled over into March.
    expect(await storedDays(site.siteId, '2024-02-01', '2026-03-31')).toEqual([
      '2024-02-29 /feb-29-2024',
      '2026-02-28 /feb-28',
    ])
  })

  it('rejects exported lines whose timestamp does not exist', async () => {
    const site = await t.createSite(owner.cookie, owner.organizationId, 'exported.example.com')
    const seeded = await importBody(
      site.siteId,
      JSON.stringify({ timestamp: '2026-02-28T10:00:00Z', pathname: '/seed', user_id: 'u' }),
      'application/x-ndjson',
    )
    expect(seeded.json()).toMatchObject({ imported: 1 })
    const exported = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${site.siteId}/export`,
      headers: { cookie: owner.cookie },
    })
    const template = JSON.parse(exported.body.trim()) as Record<string, unknown>
    const copy = (timestamp: string, pathname: string) =>
      JSON.stringify({ ...template, eventId: crypto.randomUUID(), timestamp, pathname })
    const body = [
      copy('2026-02-30T00:00:00.000Z', '/feb-30'),
      copy('2026-03-02T00:00:00.000Z', '/mar-2'),
      copy('2026-03-01T24:00:00.000Z', '/hour-24'),
    ].join('\n')
    const response = await importBody(site.siteId, body, 'application/x-ndjson')
    expect(response.json()).toEqual({
      success: true,
      imported: 1,
      dropped: {},
      rejectedCount: 2,
      rejected: [
        {
          line: 1,
          error:
            'timestamp: must be a date and time that exist: 2026-02-30 is not a date (February 2026 has 28 days)',
        },
        { line: 3, error: 'timestamp: must be a date and time that exist: hour 24 does not exist (00-23)' },
      ],
    })
    expect(await storedDays(site.siteId, '2026-02-01', '2026-03-31')).toEqual([
      '2026-02-28 /seed',
      '2026-03-02 /mar-2',
    ])
  })

  it('never takes a time from a tracking body: POST /api/track stamps events with the server clock', async () => {
    const site = await t.createSite(owner.cookie, owner.organizationId, 'track.example.com')
    const tracked = await t.track(
      site,
      { pathname: '/tracked', timestamp: '2026-02-30T00:00:00Z', user_id: 'u' },
      { apiKey: owner.apiKey },
    )
    expect(tracked.statusCode, tracked.body).toBe(200)
    await t.services.buffer.flush()
    expect(await storedDays(site.siteId, '2026-01-01', '2026-12-31')).toEqual(['2026-11-20 /tracked'])
  })

  it('rejects Umami rows whose created_at does not exist, by row', async () => {
    const site = await t.createSite(owner.cookie, owner.organizationId, 'umami.example.com')
    const website = crypto.randomUUID()
    const header =
      'event_id,website_id,session_id,visit_id,created_at,url_path,url_query,referrer_path,referrer_query,referrer_domain,page_title,event_type,event_name,hostname'
    const row = (createdAt: string, path: string) =>
      [
        crypto.randomUUID(),
        website,
        crypto.randomUUID(),
        crypto.randomUUID(),
        createdAt,
        path,
        '',
        '',
        '',
        '',
        'Title',
        '1',
        '',
        'umami.example.com',
      ].join(',')
    const body = [
      header,
      row('2026-02-28 10:00:00+00', '/feb-28'),
      row('2026-02-30 10:00:00+00', '/feb-30'),
      row('2025-02-29 10:00:00.123+00', '/feb-29-2025'),
      row('2026-03-01 24:00:00+00', '/hour-24'),
      row('2026-03-01 10:00:00+25', '/offset-25'),
    ].join('\n')
    const response = await importBody(site.siteId, body, 'text/csv', '?format=umami')
    expect(response.statusCode, response.body).toBe(200)
    const refused = 'created_at: must be a date and time that exist:'
    expect(response.json()).toEqual({
      success: true,
      imported: 1,
      dropped: {},
      rejectedCount: 4,
      rejected: [
        { line: 2, error: `${refused} 2026-02-30 is not a date (February 2026 has 28 days)` },
        { line: 3, error: `${refused} 2025-02-29 is not a date (February 2025 has 28 days)` },
        { line: 4, error: `${refused} hour 24 does not exist (00-23)` },
        { line: 5, error: `${refused} offset +25 does not exist` },
      ],
    })
    expect(await storedDays(site.siteId, '2026-02-01', '2026-03-31')).toEqual(['2026-02-28 /feb-28'])
  })
})
