/**
 * Custom properties read one way everywhere, through the real app on SQLite + chDB: events sent live
 * (`POST /api/track`, properties as a string and as an object) and imported (raw NDJSON lines, as a
 * string and as an object) with a key given twice, numbers ClickHouse cannot read as 64-bit integers
 * and numbers at the edges of their text form. The keys report, the value breakdown, a filter and the
 * events list are each checked against a count in plain code over the texts sent, read with
 * `JSON.parse` (the last of a repeated key wins) and `String(x)` for numbers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { DESKTOP_CHROME_UA, openTestInstance, type TestInstance } from '../testing/test-instance.js'

const NOW = Date.parse('2026-03-20T12:00:00.000Z')
const RANGE = 'start_date=2026-03-01&end_date=2026-03-31'

/** Properties as JSON text, each sent by several events (live and imported, as text and as an object). */
const TEXTS = [
  '{"k":1,"k":2}',
  '{"k":"a","other":"x0","k":"b"}',
  '{"neg": -12345678901234567890, "other":"x1"}',
  '{"u":18446744073709551616,"other":"x4"}',
  '{"n":1e21,"other":"x5"}',
  '{"n":1e-7}',
  '{"n":-0,"k":2}',
  '{"n":9007199254740993}',
  '{"n":3.0,"nested":{"a":1,"a":[1,2]}}',
  '{"n":3,"deep":[{"x":1e300}]}',
]

/** How an event is sent: live or imported, its properties embedded as a string or as the object. */
const WAYS = ['live-text', 'live-object', 'import-text', 'import-object'] as const

/**
 * The value of a property as the reports write it: a string as is, a number as String(x), an object
 * or array as its compact JSON text, whose numbers ClickHouse writes without the exponent's `+`.
 */
const canonical = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'number'
      ? String(value)
      : value !== null && typeof value === 'object'
        ? JSON.stringify(value).replace(/(\d)e\+/g, '$1e')
        : JSON.stringify(value)

/** Every sent event: its visitor and its properties as JSON.parse reads them (-0 stored as 0). */
const SENT: { user: string; props: Record<string, unknown> }[] = []
for (const [i, text] of TEXTS.entries())
  for (const way of WAYS)
    SENT.push({ user: `u${i}-${way}`, props: JSON.parse(text, (_key, v) => (Object.is(v, -0) ? 0 : v)) })

describe('custom properties: one reading for the map, the reports, filters and the events list', () => {
  let t: TestInstance
  let site: Site
  let cookie: string

  const get = async (path: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${site.siteId}/${path}`,
      headers: { cookie },
    })
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }

  /** POST /api/track with a raw JSON body text, as a browser on the site sends it. */
  const trackText = (body: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/track',
      headers: {
        'content-type': 'application/json',
        origin: `https://${site.domain}`,
        'user-agent': DESKTOP_CHROME_UA,
      },
      payload: body,
    })

  /** The body text of an event with properties `text`, embedded as a JSON string or as the object. */
  const bodyText = (user: string, text: string, asObject: boolean, extra = '') =>
    `{"site_id":"${site.siteId}","type":"custom_event","event_name":"buy","pathname":"/p","user_id":"${user}"${extra},"properties":${asObject ? text : JSON.stringify(text)}}`

  beforeAll(async () => {
    t = await openTestInstance({ clock: () => NOW })
    const seeded = await t.seed()
    site = seeded.site
    cookie = seeded.cookie
    const lines: string[] = []
    for (const [i, text] of TEXTS.entries()) {
      for (const asObject of [false, true]) {
        const way = asObject ? 'live-object' : 'live-text'
        const answer = await trackText(bodyText(`u${i}-${way}`, text, asObject))
        expect(answer.statusCode, answer.body).toBe(200)
        const importWay = asObject ? 'import-object' : 'import-text'
        lines.push(
          bodyText(
            `u${i}-${importWay}`,
            text,
            asObject,
            `,"timestamp":"2026-03-1${i % 9}T10:00:00.000Z"`,
          ).replace(`"site_id":"${site.siteId}",`, ''),
        )
      }
    }
    await t.services.buffer.flush()
    const imported = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/import`,
      headers: { cookie, 'content-type': 'application/x-ndjson' },
      payload: `${lines.join('\n')}\n`,
    })
    expect(imported.statusCode, imported.body).toBe(200)
    expect(imported.json()).toMatchObject({ imported: lines.length, rejectedCount: 0 })
  }, 120_000)
  afterAll(() => t?.close())

  it('counts each key once per event, the last duplicate winning', async () => {
    const expected = new Map<string, number>()
    for (const e of SENT)
      for (const key of Object.keys(e.props)) expected.set(key, (expected.get(key) ?? 0) + 1)
    const answer = await get(`properties?${RANGE}&limit=100`)
    expect(new Map(answer.data.map((row: { key: string; events: number }) => [row.key, row.events]))).toEqual(
      expected,
    )
    expect(expected.get('k')).toBe(3 * WAYS.length)
    expect(expected.get('other')).toBe(4 * WAYS.length)
  })

  it('breaks values down as JSON.parse and String(x) read them, numbers at the edges included', async () => {
    for (const key of ['k', 'other', 'n', 'neg', 'u', 'nested', 'deep']) {
      const expected = new Map<string, number>()
      for (const e of SENT)
        if (key in e.props)
          expected.set(canonical(e.props[key]), (expected.get(canonical(e.props[key])) ?? 0) + 1)
      const answer = await get(`breakdown/properties?${RANGE}&property=${key}&limit=100`)
      expect(
        new Map(answer.data.map((row: { value: string; events: number }) => [row.value, row.events])),
        key,
      ).toEqual(expected)
    }
    const n = await get(`breakdown/properties?${RANGE}&property=n&limit=100`)
    expect(n.data.map((row: { value: string }) => row.value).sort()).toEqual(
      ['0', '1e+21', '1e-7', '3', '9007199254740992'].sort(),
    )
    const neg = await get(`breakdown/properties?${RANGE}&property=neg`)
    expect(neg.data).toEqual([{ value: '-12345678901234567000', events: 4, visitors: 4 }])
  })

  it('filters by the value the breakdown shows, a number in any spelling', async () => {
    const cases: [string, string[], (props: Record<string, unknown>) => boolean][] = [
      ['k', ['2'], (p) => p.k === 2],
      ['k', ['1', 'b'], (p) => p.k === 1 || p.k === 'b'],
      ['k', ['b'], (p) => p.k === 'b'],
      ['other', ['x1', 'x4'], (p) => p.other === 'x1' || p.other === 'x4'],
      ['n', ['1e21'], (p) => p.n === 1e21],
      ['n', ['1e+21'], (p) => p.n === 1e21],
      ['n', ['-0'], (p) => p.n === 0],
      ['n', ['0.0000001'], (p) => p.n === 1e-7],
      ['u', ['18446744073709551616'], (p) => p.u === 2 ** 64],
    ]
    for (const [key, value, passes] of cases) {
      const filters = encodeURIComponent(
        JSON.stringify([{ parameter: `properties.${key}`, type: 'equals', value }]),
      )
      const answer = await get(`events?${RANGE}&limit=500&filters=${filters}`)
      const expected = SENT.filter((e) => passes(e.props))
      expect(answer.data.length, `${key} ${value}`).toBe(expected.length)
      expect(answer.data.length, `${key} ${value}`).toBeGreaterThan(0)
    }
  })

  it('lists each event with the properties JSON.parse reads from what was sent', async () => {
    const answer = await get(`events?${RANGE}&limit=500`)
    expect(answer.data).toHaveLength(SENT.length)
    const byUser = new Map(SENT.map((e) => [e.user, e.props]))
    for (const event of answer.data as { userId: string; properties: unknown }[])
      expect(event.properties, event.userId).toEqual(byUser.get(event.userId))
  })

  it('refuses a number beyond the double range with a 400 naming its key, live and imported', async () => {
    for (const text of ['{"big":1e400,"other":"x2"}', '{"ok":1,"deep":{"big":-1e999}}']) {
      for (const asObject of [false, true]) {
        const answer = await trackText(bodyText('u-big', text, asObject))
        expect(answer.statusCode, answer.body).toBe(400)
        expect(answer.json().details.fieldErrors.properties[0]).toMatch(
          /"(big|deep\.big)": number out of range/,
        )
      }
    }
    const imported = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/import`,
      headers: { cookie, 'content-type': 'application/x-ndjson' },
      payload: `{"timestamp":"2026-03-05T10:00:00.000Z","type":"custom_event","event_name":"buy","properties":{"big":1e400}}\n`,
    })
    expect(imported.statusCode, imported.body).toBe(200)
    expect(imported.json()).toMatchObject({ imported: 0, rejectedCount: 1 })
    expect(JSON.stringify(imported.json())).toContain('properties: \\"big\\": number out of range')
  })
})
