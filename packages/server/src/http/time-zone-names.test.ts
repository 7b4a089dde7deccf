/**
 * A report's time zone comes back as the caller named it: `Asia/Kolkata` (which ICU calls
 * `Asia/Calcutta`) and `US/Eastern` stay so in `meta.timeZone`, a name that differs only in case is
 * given its canonical spelling, and the figures are those of the zone whatever its name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

describe('time zone names in answers', () => {
  let t: TestInstance
  let site: Site
  let cookie: string
  const NOW = Date.parse('2026-03-20T12:00:00.000Z')

  const get = async (path: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${site.siteId}/${path}`,
      headers: { cookie },
    })
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }

  beforeAll(async () => {
    t = await openTestInstance({ clock: () => NOW })
    const seeded = await t.seed()
    site = seeded.site
    cookie = seeded.cookie
    // Pageviews either side of midnight in Kolkata (UTC+5:30): 18:29 and 18:31 UTC on 10 March.
    const lines = ['2026-03-10T18:29:00.000Z', '2026-03-10T18:31:00.000Z', '2026-03-11T09:00:00.000Z'].map(
      (timestamp, i) =>
        JSON.stringify({ timestamp, pathname: '/', hostname: 'example.com', user_id: `v${i}` }),
    )
    const imported = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/import`,
      headers: { cookie, 'content-type': 'application/x-ndjson' },
      payload: `${lines.join('\n')}\n`,
    })
    expect(imported.statusCode, imported.body).toBe(200)
  }, 120_000)
  afterAll(() => t?.close())

  it.each([
    ['Asia/Kolkata', 'Asia/Kolkata'],
    ['Asia/Calcutta', 'Asia/Calcutta'],
    ['US/Eastern', 'US/Eastern'],
    ['europe/berlin', 'Europe/Berlin'],
    ['utc', 'UTC'],
  ])('time_zone=%s answers meta.timeZone %s', async (named, echoed) => {
    const range = `start_date=2026-03-10&end_date=2026-03-11&time_zone=${encodeURIComponent(named)}&compare=none`
    const stats = await get(`stats?${range}&bucket=day`)
    expect(stats.meta.timeZone).toBe(echoed)
    const series = await get(`series?${range}&bucket=day`)
    expect(series.meta.timeZone).toBe(echoed)
  })

  it('counts the same days under both names of Kolkata', async () => {
    const days = async (zone: string) =>
      (
        await get(
          `series?start_date=2026-03-10&end_date=2026-03-11&time_zone=${zone}&compare=none&bucket=day`,
        )
      ).data.map((point: { pageviews: number }) => point.pageviews)
    // In Kolkata the 18:29 UTC view is on the 10th, the other two on the 11th.
    expect(await days('Asia/Kolkata')).toEqual([1, 2])
    expect(await days('Asia/Calcutta')).toEqual([1, 2])
  })
})
