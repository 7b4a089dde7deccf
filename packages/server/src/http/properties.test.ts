/**
 * `GET .../properties` and `GET .../breakdown/properties` through the real app on SQLite + chDB:
 * keys and values of generated custom events (ties in value types, nested values as JSON text),
 * with `event_name`, a filter and paging, each checked against a count of the events in plain code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const T0 = Date.parse('2026-03-10T10:00:00.000Z')
const RANGE = 'start_date=2026-03-01&end_date=2026-03-31'

const VARIANTS: Record<string, unknown>[] = [
  { plan: 'pro', seats: 3 },
  { plan: 'free', seats: '3' },
  { plan: 'pro', seats: 2.5, meta: { tier: 'gold' } },
  { seats: 4, meta: [1, 'a'], ok: true },
  { plan: null },
  {},
]

interface GeneratedEvent {
  user: string
  at: number
  name: string
  props: Record<string, unknown>
}

/** Visitor i: a signup with VARIANTS[i % 6]; every third visitor also a renew with the same. */
const EVENTS: GeneratedEvent[] = []
for (let i = 0; i < 30; i++) {
  const props = VARIANTS[i % 6] as Record<string, unknown>
  EVENTS.push({ user: `u${i % 20}`, at: T0 + i * 3_600_000, name: 'signup', props })
  if (i % 3 === 0) EVENTS.push({ user: `u${i % 20}`, at: T0 + i * 3_600_000 + 60_000, name: 'renew', props })
}

const lineOf = (e: GeneratedEvent) =>
  JSON.stringify({
    timestamp: new Date(e.at).toISOString(),
    hostname: 'example.com',
    pathname: '/app',
    user_id: e.user,
    type: 'custom_event',
    event_name: e.name,
    properties: e.props,
  })

/** A value as the report writes it: canonical text (3 and "3" alike; objects as JSON). */
const canonical = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value))

/** Rows `{[field], events, visitors}` of the events, grouped by `keyOf` (null: left out), ranked. */
function countBy<F extends string>(
  field: F,
  events: GeneratedEvent[],
  keysOf: (e: GeneratedEvent) => string[],
) {
  const groups = new Map<string, { events: number; users: Set<string> }>()
  for (const e of events)
    for (const key of keysOf(e)) {
      const group = groups.get(key) ?? { events: 0, users: new Set<string>() }
      group.events++
      group.users.add(e.user)
      groups.set(key, group)
    }
  return [...groups.entries()]
    .map(
      ([key, g]) =>
        ({ [field]: key, events: g.events, visitors: g.users.size }) as Record<F, string> & {
          events: number
          visitors: number
        },
    )
    .sort((a, b) => b.events - a.events || (a[field] < b[field] ? -1 : a[field] > b[field] ? 1 : 0))
}

describe('custom property reports on SQLite + chDB', () => {
  let t: TestInstance
  let site: Site
  let cookie: string

  const get = async (path: string, status = 200) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${site.siteId}/${path}`,
      headers: { cookie },
    })
    expect(response.statusCode, response.body).toBe(status)
    return response.json()
  }

  beforeAll(async () => {
    t = await openTestInstance({ clock: () => Date.parse('2026-04-01T12:00:00.000Z') })
    const seeded = await t.seed()
    site = seeded.site
    cookie = seeded.cookie
    const imported = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/import`,
      headers: { cookie, 'content-type': 'application/x-ndjson' },
      payload: `${EVENTS.map(lineOf).join('\n')}\n`,
    })
    expect(imported.statusCode, imported.body).toBe(200)
  }, 120_000)
  afterAll(() => t?.close())

  it('lists the keys seen, with and without event_name', async () => {
    const all = await get(`properties?${RANGE}`)
    expect(all.data).toEqual(countBy('key', EVENTS, (e) => Object.keys(e.props)))
    expect(all.meta).toMatchObject({ total: 4, page: 1 })
    const renew = await get(`properties?${RANGE}&event_name=renew`)
    expect(renew.data).toEqual(
      countBy(
        'key',
        EVENTS.filter((e) => e.name === 'renew'),
        (e) => Object.keys(e.props),
      ),
    )
  })

  it('breaks a key down by value: 3 and "3" one row, nested values as JSON text', async () => {
    for (const key of ['seats', 'plan', 'meta', 'ok']) {
      const answer = await get(`breakdown/properties?${RANGE}&property=${key}`)
      const expected = countBy('value', EVENTS, (e) => (key in e.props ? [canonical(e.props[key])] : []))
      expect(answer.data).toEqual(expected)
      expect(answer.meta.total).toBe(expected.length)
    }
    const seats = await get(`breakdown/properties?${RANGE}&property=seats`)
    expect(seats.data.find((row: { value: string }) => row.value === '3')?.events).toBe(
      EVENTS.filter((e) => e.props.seats === 3 || e.props.seats === '3').length,
    )
  })

  it('takes event_name, filters and paging', async () => {
    const filters = encodeURIComponent(
      JSON.stringify([{ parameter: 'properties.plan', type: 'equals', value: ['pro'] }]),
    )
    const answer = await get(
      `breakdown/properties?${RANGE}&property=seats&event_name=signup&filters=${filters}`,
    )
    const passing = EVENTS.filter((e) => e.name === 'signup' && e.props.plan === 'pro')
    expect(answer.data).toEqual(
      countBy('value', passing, (e) => ('seats' in e.props ? [canonical(e.props.seats)] : [])),
    )
    const page2 = await get(`breakdown/properties?${RANGE}&property=seats&limit=1&page=2`)
    const whole = countBy('value', EVENTS, (e) => ('seats' in e.props ? [canonical(e.props.seats)] : []))
    expect(page2.data).toEqual(whole.slice(1, 2))
    expect(page2.meta).toEqual({ total: whole.length, page: 2, pageSize: 1, totalPages: whole.length })
  })

  it('answers 400 naming the parameter for a missing or bad property', async () => {
    expect((await get(`breakdown/properties?${RANGE}`, 400)).error).toContain('property')
    expect((await get(`breakdown/properties?${RANGE}&property=${'k'.repeat(101)}`, 400)).error).toContain(
      'property',
    )
    expect((await get(`breakdown/properties?${RANGE}&property=a%07`, 400)).error).toContain('printable')
    expect((await get(`properties?${RANGE}&event_name=`, 400)).error).toContain('event_name')
  })
})
