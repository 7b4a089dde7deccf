/**
 * The demo's import of an access log, against a real instance over HTTP: every page request lands at
 * its logged time plus one offset that puts the latest at `now`, requests without a user agent are not
 * sent (counted as live tracking counts them), assets are not pages, and out-of-order lines still make
 * one session per visit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import { readAccessLog } from './access-log.js'
import { importAccessLog, offsetToNow, toImportLine } from './import-access-log.js'

const FIREFOX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:27.0) Gecko/20100101 Firefox/27.0'
const line = (time: string, target: string, agent = FIREFOX, ip = '81.2.69.160') =>
  `${ip} - - [${time} +0000] "GET ${target} HTTP/1.1" 200 512 "-" "${agent || '-'}"`

describe('offsetToNow and toImportLine', () => {
  it('move the latest time to now and keep the spacing', () => {
    expect(offsetToNow([1_000, 5_000, 3_000], 10_000)).toBe(5_000)
    expect(offsetToNow([], 10_000)).toBe(0)
    const [parsed] = [...readAccessLog(line('17/May/2015:10:00:00', '/a?b=c'))]
    expect(parsed && toImportLine(parsed, 'example.com', 86_400_000)).toEqual({
      timestamp: '2015-05-18T10:00:00.000Z',
      type: 'pageview',
      hostname: 'example.com',
      pathname: '/a',
      querystring: 'b=c',
      referrer: '',
      ip_address: '81.2.69.160',
      user_agent: FIREFOX,
    })
  })
})

describe('importAccessLog', () => {
  let t: TestInstance
  let base: string

  beforeAll(async () => {
    t = await openTestInstance()
    base = await t.app.listen({ port: 0, host: '127.0.0.1' })
  })
  afterAll(() => t.close())

  it('imports the pages at their shifted times, one session per visit', async () => {
    const { cookie, site } = await t.seed()
    // Out of order, as real logs are: the visit's second page is logged before its first.
    const log = [
      line('18/May/2015:09:00:30', '/second'),
      line('18/May/2015:09:00:00', '/'),
      line('18/May/2015:09:00:10', '/style.css'),
      line('18/May/2015:09:01:00', '/third'),
      line('17/May/2015:12:00:00', '/yesterday', FIREFOX, '93.184.216.34'),
      line('18/May/2015:08:00:00', '/no-agent', ''),
    ].join('\n')
    const now = Date.parse('2026-12-01T18:00:00.000Z')
    const result = await importAccessLog({
      baseUrl: base,
      siteId: site.siteId,
      domain: site.domain,
      cookie,
      lines: [...readAccessLog(log)],
      now,
    })
    expect(result).toMatchObject({
      pages: 5,
      sent: 4,
      imported: 4,
      dropped: { 'bot:empty_user_agent': 1 },
      rejected: 0,
      offsetMs: now - Date.parse('2015-05-18T09:01:00Z'),
    })
    expect(result.from?.toISOString()).toBe('2026-11-30T20:59:00.000Z')
    expect(result.to?.toISOString()).toBe('2026-12-01T18:00:00.000Z')

    const rows = await t.services.events.query<{ pathname: string; timestamp: string; session_id: string }>(
      `SELECT pathname, toString(timestamp) AS timestamp, toString(session_id) AS session_id FROM events
       WHERE site_id = {site:UInt32} ORDER BY timestamp`,
      { site: site.siteId },
    )
    expect(rows.map((r) => [r.pathname, r.timestamp.slice(0, 19)])).toEqual([
      ['/yesterday', '2026-11-30 20:59:00'],
      ['/', '2026-12-01 17:59:00'],
      ['/second', '2026-12-01 17:59:30'],
      ['/third', '2026-12-01 18:00:00'],
    ])
    expect(new Set(rows.slice(1).map((r) => r.session_id)).size).toBe(1)
    expect(rows[0]?.session_id).not.toBe(rows[1]?.session_id)
  })
})
