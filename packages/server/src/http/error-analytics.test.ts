/**
 * Error analytics routes through the real app (SQLite + chDB): JavaScript errors ingested with
 * POST /api/track at controlled times around the change to summer time in Europe/Berlin
 * (2026-03-29, 02:00 CET -> 03:00 CEST), read back grouped by message, as occurrences and as
 * buckets in the site's zone; parameter validation and reader access.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:124.0) Gecko/20100101 Firefox/124.0'
const TYPE_ERROR = "Cannot read properties of undefined (reading 'id')"
const NETWORK_ERROR = 'NetworkError when attempting to fetch resource.'

let t: TestInstance
let now = 0
let owner: { cookie: string }
let site: Site
let apiKey: string

const track = async (at: string, body: Record<string, unknown>) => {
  now = Date.parse(at)
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/track',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    payload: JSON.stringify({ site_id: String(site.siteId), hostname: 'example.com', ...body }),
  })
  expect(response.statusCode, response.body).toBe(200)
}

const error = (at: string, user: string, message: string, extra: Record<string, unknown> = {}) =>
  track(at, {
    type: 'error',
    user_id: user,
    user_agent: FIREFOX_LINUX,
    pathname: '/app',
    event_name: message === TYPE_ERROR ? 'TypeError' : 'Error',
    properties: JSON.stringify({
      message,
      stack: `Error: ${message}\n    at load (https://example.com/app.js:12:7)\n    at main (https://example.com/app.js:40:3)`,
      fileName: 'https://example.com/app.js',
      lineNumber: 12,
      columnNumber: 7,
      ...extra,
    }),
  })

beforeAll(async () => {
  t = await openTestInstance({ clock: () => now })
  const seeded = await t.seed()
  owner = { cookie: seeded.cookie }
  site = seeded.site
  apiKey = seeded.apiKey
  // Berlin wall clock in the comments. Sessions: v1 two (a day apart), v2 two (23:30 and from 00:59:59),
  // v3 one.
  await error('2026-03-27T22:59:59.999Z', 'v1', TYPE_ERROR) // 03-27 23:59:59.999 CET: before the range
  await error('2026-03-28T09:00:00.000Z', 'v1', TYPE_ERROR) // 03-28 10:00 CET
  await error('2026-03-28T23:30:00.000Z', 'v2', TYPE_ERROR) // 03-29 00:30 CET
  await error('2026-03-29T00:59:59.999Z', 'v2', NETWORK_ERROR) // 03-29 01:59:59.999 CET
  await error('2026-03-29T01:00:00.000Z', 'v2', TYPE_ERROR) // 03-29 03:00 CEST
  await error('2026-03-29T01:20:00.000Z', 'v2', TYPE_ERROR, { lineNumber: 99 }) // 03-29 03:20 CEST
  await error('2026-03-29T21:59:59.999Z', 'v3', TYPE_ERROR) // 03-29 23:59:59.999 CEST
  await error('2026-03-29T22:00:00.000Z', 'v3', NETWORK_ERROR) // 03-30 00:00 CEST: after the range
  await track('2026-03-29T01:10:00.000Z', { user_id: 'v2', user_agent: FIREFOX_LINUX, pathname: '/app' })
  await t.services.buffer.flush()
}, 60_000)
afterAll(() => t.close())

const get = (path: string, headers: Record<string, string> = { cookie: owner.cookie }) =>
  t.app.inject({ method: 'GET', url: `/api/sites/${site.siteId}/${path}`, headers })
const RANGE = 'start_date=2026-03-28&end_date=2026-03-29&time_zone=Europe/Berlin'
const message = (text: string) => `errorMessage=${encodeURIComponent(text)}`

describe('GET /api/sites/{site}/error-names', () => {
  it('groups the range by message with counts, sessions and percentages', async () => {
    const response = await get(`error-names?${RANGE}`)
    expect(response.statusCode, response.body).toBe(200)
    // In range (Berlin 03-28 and 03-29): 5 TypeErrors in 4 sessions, 1 NetworkError in 1.
    expect(response.json()).toEqual({
      data: [
        { value: TYPE_ERROR, errorName: 'TypeError', count: 5, sessionCount: 4, percentage: 83.33 },
        { value: NETWORK_ERROR, errorName: 'Error', count: 1, sessionCount: 1, percentage: 16.67 },
      ],
      meta: { total: 2, page: 1, pageSize: 50, totalPages: 1 },
    })
    // In UTC the same dates hold the first event too, and not the last.
    const utc = (await get('error-names?start_date=2026-03-28&end_date=2026-03-29')).json()
    expect(utc.data.map((e: { count: number }) => e.count)).toEqual([5, 2])
    const paged = (await get(`error-names?${RANGE}&limit=1&page=2`)).json()
    expect(paged.data.map((e: { value: string }) => e.value)).toEqual([NETWORK_ERROR])
    expect(paged.meta).toEqual({ total: 2, page: 2, pageSize: 1, totalPages: 2 })
    const filters = encodeURIComponent(
      JSON.stringify([{ parameter: 'pathname', type: 'not_equals', value: ['/app'] }]),
    )
    expect((await get(`error-names?${RANGE}&filters=${filters}`)).json()).toEqual({
      data: [],
      meta: { total: 0, page: 1, pageSize: 50, totalPages: 0 },
    })
  })
})

describe('GET /api/sites/{site}/error-events', () => {
  it('lists the occurrences of one message newest first with every field', async () => {
    const response = await get(`error-events?${RANGE}&${message(TYPE_ERROR)}&limit=2`)
    expect(response.statusCode, response.body).toBe(200)
    const { data } = response.json() as { data: Record<string, unknown>[] }
    const common = {
      user_id: expect.any(String),
      session_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      pathname: '/app',
      hostname: 'example.com',
      browser: 'Firefox',
      browser_version: '124.0',
      operating_system: 'Linux',
      device_type: 'desktop',
      country: '',
      message: TYPE_ERROR,
      stack: `Error: ${TYPE_ERROR}\n    at load (https://example.com/app.js:12:7)\n    at main (https://example.com/app.js:40:3)`,
      fileName: 'https://example.com/app.js',
      columnNumber: 7,
    }
    expect(data).toEqual([
      { ...common, timestamp: '2026-03-29T21:59:59.999Z', user_id: 'v3', lineNumber: 12 },
      { ...common, timestamp: '2026-03-29T01:20:00.000Z', user_id: 'v2', lineNumber: 99 },
    ])
    const all = (await get(`error-events?${RANGE}&${message(TYPE_ERROR)}`)).json()
    expect(all.data.map((e: { timestamp: string }) => e.timestamp)).toEqual([
      '2026-03-29T21:59:59.999Z',
      '2026-03-29T01:20:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-28T23:30:00.000Z',
      '2026-03-28T09:00:00.000Z',
    ])
  })
})

describe('GET /api/sites/{site}/error-bucketed', () => {
  it('counts hourly buckets in Berlin: 24 + 23 hours, zeros filled, times in UTC', async () => {
    const response = await get(`error-bucketed?${RANGE}&${message(TYPE_ERROR)}&bucket=hour`)
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json() as { success: boolean; data: { time: string; error_count: number }[] }
    expect(body.success).toBe(true)
    expect(body.data).toHaveLength(47)
    expect(body.data[0]).toEqual({ time: '2026-03-27T23:00:00.000Z', error_count: 0 })
    expect(body.data.filter((b) => b.error_count > 0)).toEqual([
      { time: '2026-03-28T09:00:00.000Z', error_count: 1 },
      { time: '2026-03-28T23:00:00.000Z', error_count: 1 },
      { time: '2026-03-29T01:00:00.000Z', error_count: 2 }, // 03:00 CEST, right after 01:59 CET
      { time: '2026-03-29T21:00:00.000Z', error_count: 1 },
    ])
    expect(body.data.at(-1)).toEqual({ time: '2026-03-29T21:00:00.000Z', error_count: 1 })
    // The default bucket is the hour.
    expect((await get(`error-bucketed?${RANGE}&${message(TYPE_ERROR)}`)).json()).toEqual(body)
  })

  it('counts daily buckets at Berlin midnights, and other units', async () => {
    const day = (await get(`error-bucketed?${RANGE}&${message(TYPE_ERROR)}&bucket=day`)).json()
    expect(day).toEqual({
      success: true,
      data: [
        { time: '2026-03-27T23:00:00.000Z', error_count: 1 },
        { time: '2026-03-28T23:00:00.000Z', error_count: 4 },
      ],
      meta: { total: 2 },
    })
    const network = (await get(`error-bucketed?${RANGE}&${message(NETWORK_ERROR)}&bucket=day`)).json()
    expect(network.data.map((b: { error_count: number }) => b.error_count)).toEqual([0, 1])
    const week = (await get(`error-bucketed?${RANGE}&${message(TYPE_ERROR)}&bucket=week`)).json()
    expect(week.data).toEqual([{ time: '2026-03-22T23:00:00.000Z', error_count: 5 }])
    const month = (await get(`error-bucketed?${RANGE}&${message(TYPE_ERROR)}&bucket=month`)).json()
    expect(month.data).toEqual([{ time: '2026-02-28T23:00:00.000Z', error_count: 5 }])
    const minute = (await get(`error-bucketed?${RANGE}&${message(TYPE_ERROR)}&bucket=minute`)).json()
    expect(minute.data).toHaveLength(47 * 60)
    // In New York (UTC-4 after 03-08) the same dates hold other events: 01:00Z on the 29th is 21:00 on the 28th.
    const ny = (
      await get(
        `error-bucketed?start_date=2026-03-28&end_date=2026-03-29&time_zone=America/New_York&${message(TYPE_ERROR)}&bucket=day`,
      )
    ).json()
    expect(ny.data).toEqual([
      { time: '2026-03-28T04:00:00.000Z', error_count: 4 },
      { time: '2026-03-29T04:00:00.000Z', error_count: 1 },
    ])
  })
})

describe('parameters and access', () => {
  it.each([
    ['error-events?start_date=2026-03-01', 'errorMessage', 'errorMessage is required'],
    ['error-bucketed?bucket=hour', 'errorMessage', 'errorMessage is required'],
    ['error-events?errorMessage=', 'errorMessage', 'errorMessage is required'],
    ['error-events?errorMessage=a&errorMessage=b', 'errorMessage', 'given once'],
    ['error-bucketed?errorMessage=x&bucket=second', 'bucket', 'one of minute, hour, day, week, month'],
    [
      'error-bucketed?errorMessage=x&bucket=minute&start_date=2026-01-01&end_date=2026-03-31',
      'bucket',
      'too many buckets',
    ],
    ['error-names?start_date=03/01/2026', 'start_date', 'calendar date'],
    ['error-names?time_zone=CEST', 'time_zone', 'IANA'],
    ['error-names?filters=%5B', 'filters', 'JSON'],
    [
      `error-names?filters=${encodeURIComponent(JSON.stringify([{ parameter: 'pathname', type: 'regex', value: ['a'.repeat(300)] }]))}`,
      'filters',
      'at most 256',
    ],
    ['error-events?errorMessage=x&limit=0', 'limit', 'from 1 to 1000'],
  ])('%s: 400 naming %s', async (path, name, text) => {
    const response = await get(path)
    expect(response.statusCode).toBe(400)
    const body = response.json() as {
      success: boolean
      error: string
      details: { fieldErrors: Record<string, string[]> }
    }
    expect(body.success).toBe(false)
    expect(body.error).toContain(name)
    expect(body.details.fieldErrors[name]?.join(' ')).toContain(text)
  })

  it('reads with the private link key, or anonymously once the site is public', async () => {
    const paths = [
      'error-names',
      `error-events?${message(TYPE_ERROR)}`,
      `error-bucketed?${message(TYPE_ERROR)}&bucket=day`,
    ]
    for (const path of paths) expect((await get(path, {})).statusCode).toBe(401)
    const key = (
      await t.app.inject({
        method: 'POST',
        url: `/api/sites/${site.siteId}/private-link-config`,
        headers: { cookie: owner.cookie },
        payload: { action: 'generate_private_link_key' },
      })
    ).json().data.privateLinkKey as string
    for (const path of paths) expect((await get(path, { 'x-private-key': key })).statusCode).toBe(200)
    for (const path of paths) expect((await get(path, { 'x-private-key': `${key}x` })).statusCode).toBe(404)
    for (const path of paths)
      expect((await get(path, { authorization: `Bearer ${apiKey}` })).statusCode).toBe(200)
    const outsider = await t.signUp()
    for (const path of paths) expect((await get(path, { cookie: outsider.cookie })).statusCode).toBe(404)
    await t.app.inject({
      method: 'PUT',
      url: `/api/sites/${site.siteId}/config`,
      headers: { cookie: owner.cookie },
      payload: { public: true },
    })
    for (const path of paths) expect((await get(path, {})).statusCode).toBe(200)
  })
})
