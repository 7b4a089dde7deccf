/**
 * The client's reads against the real server (a child process on embedded SQLite + chDB, loopback): the
 * stats of today against the previous year and the previous period, with the compared days in `meta`;
 * the annotations written through the API; a saved segment against the same filters inline; the custom
 * property keys and one key's values of events this file sent (ties in value types, paging, a property
 * filter); and the server's 400s (a comparison, a property key), which reject naming the parameter.
 * Figures are counted from what this file sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ServerProcess, startServerProcess } from '../../server/src/testing/start-server-process.js'
import { Pathlight } from '../src/client.js'
import { PathlightInvalidPayloadError } from '../src/errors.js'

let server: ServerProcess
beforeAll(async () => {
  // This file makes more keyed reads than the spec's 50 a minute (its polls of the event count draw on
  // the same key's budget, more of them on a loaded machine); the budget has tests of its own.
  server = await startServerProcess({ env: { PATHLIGHT_V1_LIMIT: '100000' } })
})
afterAll(async () => {
  await server?.stop()
})

const clientFor = () =>
  new Pathlight({
    analyticsHost: `${server.baseUrl}/api`,
    siteId: server.siteId,
    apiKey: server.apiKey,
    maxRetries: 1,
    backoffBaseMs: 10,
  })
const PATH = '/node-reads'
const onPath = [{ parameter: 'pathname', type: 'equals', value: [PATH] }] as const

/** The day `days` after `day` (negative: before), YYYY-MM-DD. */
const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

describe('reads against the real server', () => {
  it('stats compare with the previous year and period, and none leaves the comparison out', async () => {
    const client = clientFor()
    const sent = ['a', 'b', 'b']
    for (const visitor of sent) {
      await client.pageview({ hostname: 'example.com', pathname: PATH, user_id: `reader-${visitor}` })
    }
    await expect.poll(() => server.countEvents()).toBe(sent.length)
    const today = new Date().toISOString().slice(0, 10)
    const current = { pageviews: sent.length, visitors: new Set(sent).size }

    const year = await client.stats({
      startDate: today,
      endDate: today,
      filters: onPath,
      compare: 'previous_year',
    })
    const aYearBefore = `${Number(today.slice(0, 4)) - 1}${today.slice(4) === '-02-29' ? '-02-28' : today.slice(4)}`
    expect(year.meta).toMatchObject({
      startDate: today,
      previousStartDate: aYearBefore,
      previousEndDate: aYearBefore,
    })
    expect(year.data.current).toMatchObject(current)
    expect(year.data.previous).toMatchObject({ pageviews: 0, visitors: 0 })
    expect(year.data.change).toMatchObject({ pageviews: null, visitors: null })

    const period = await client.stats({ startDate: today, endDate: today, filters: onPath, bucket: 'day' })
    expect(period.meta).toMatchObject({
      previousStartDate: addDays(today, -1),
      previousEndDate: addDays(today, -1),
    })
    expect(period.data.series).toEqual([
      { time: `${today}T00:00:00.000Z`, visitors: 2, sessions: 2, pageviews: 3 },
    ])

    const none = await client.stats({ startDate: today, endDate: today, filters: onPath, compare: 'none' })
    expect(none.data).not.toHaveProperty('previous')
    expect(none.meta).not.toHaveProperty('previousStartDate')
    expect(none.data.current).toMatchObject(current)
  })

  it('lists the annotations on the days asked for', async () => {
    for (const [date, text] of [
      ['2026-01-05', 'Launch'],
      ['2026-02-01', 'Outage'],
    ] as const) {
      const response = await fetch(`${server.baseUrl}/api/sites/${server.siteId}/annotations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ date, text }),
      })
      expect(response.status, await response.clone().text()).toBe(201)
    }
    const client = clientFor()
    const all = await client.annotations()
    expect(all.data.map(({ date, text }) => ({ date, text }))).toEqual([
      { date: '2026-01-05', text: 'Launch' },
      { date: '2026-02-01', text: 'Outage' },
    ])
    expect(all.meta).toEqual({ total: 2 })
    const february = await client.annotations({ startDate: '2026-02-01', endDate: '2026-02-28' })
    expect(february.data.map((a) => a.text)).toEqual(['Outage'])
  })

  it("a saved segment's filters apply as the same filters inline; an unknown one is not_found", async () => {
    const client = clientFor()
    const before = await server.countEvents()
    await client.pageview({ hostname: 'example.com', pathname: '/node-segment', user_id: 'segment-a' })
    await client.pageview({ hostname: 'example.com', pathname: '/elsewhere', user_id: 'segment-b' })
    await expect.poll(() => server.countEvents()).toBe(before + 2)
    const filters = [{ parameter: 'pathname', type: 'equals', value: ['/node-segment'] }] as const
    const created = await fetch(`${server.baseUrl}/api/sites/${server.siteId}/segments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Segment page', filters, visibility: 'site' }),
    })
    expect(created.status).toBe(201)
    const { data } = (await created.json()) as { data: { segmentId: number } }
    const today = new Date().toISOString().slice(0, 10)
    const bySegment = await client.stats({
      startDate: today,
      endDate: today,
      segment: String(data.segmentId),
    })
    expect(bySegment.data.current).toMatchObject({ pageviews: 1, visitors: 1 })
    const inline = await client.stats({ startDate: today, endDate: today, filters })
    expect(bySegment.data.current).toEqual(inline.data.current)

    const unknown = await client.stats({ segment: '999999' }).then(
      () => undefined,
      (reason: unknown) => reason,
    )
    expect(unknown).toMatchObject({ kind: 'not_found', status: 404 })
  })

  it('rejects a comparison the server refuses, naming the parameter', async () => {
    const error = await clientFor()
      .stats({ compare: 'custom', compareStartDate: '2026-01-01' })
      .then(
        () => undefined,
        (reason: unknown) => reason,
      )
    expect(error).toBeInstanceOf(PathlightInvalidPayloadError)
    const refused = error as PathlightInvalidPayloadError
    expect(refused.status).toBe(400)
    expect(refused.details.fieldErrors).toHaveProperty('compare_end_date')
    expect(refused.attempts).toBe(1)
  })

  it('lists the custom property keys and breaks one down: 3 and "3" one value; filters and pages', async () => {
    const client = clientFor()
    const before = await server.countEvents()
    const sent: { visitor: string; properties: Record<string, string | number | boolean> }[] = [
      { visitor: 'p1', properties: { node_plan: 'pro', node_seats: 3 } },
      { visitor: 'p2', properties: { node_plan: 'pro', node_seats: '3' } },
      { visitor: 'p2', properties: { node_plan: 'free', node_seats: 3.0 } },
      { visitor: 'p3', properties: { node_plan: 'free', node_seats: 4.5, node_trial: true } },
      { visitor: 'p4', properties: { node_plan: 'team' } },
    ]
    for (const { visitor, properties } of sent)
      await client.event(
        'node_upgrade',
        { hostname: 'example.com', pathname: PATH, user_id: visitor },
        properties,
      )
    await expect.poll(() => server.countEvents()).toBe(before + sent.length)
    const today = new Date().toISOString().slice(0, 10)
    const range = { startDate: today, endDate: today, eventName: 'node_upgrade' }

    /** `{[field]: text, events, visitors}` over what was sent, most events first. */
    const count = (field: 'key' | 'value', textsOf: (p: (typeof sent)[number]) => string[]) => {
      const groups = new Map<string, { events: number; visitors: Set<string> }>()
      for (const event of sent)
        for (const text of textsOf(event)) {
          const group = groups.get(text) ?? { events: 0, visitors: new Set<string>() }
          group.events++
          group.visitors.add(event.visitor)
          groups.set(text, group)
        }
      return [...groups]
        .map(([text, g]) => ({ [field]: text, events: g.events, visitors: g.visitors.size }))
        .sort((a, b) => b.events - a.events || (String(a[field]) < String(b[field]) ? -1 : 1))
    }
    const keys = await client.properties(range)
    expect(keys.data).toEqual(count('key', (e) => Object.keys(e.properties)))
    expect(keys.meta).toEqual({ total: 3, page: 1, pageSize: 50, totalPages: 1 })

    const seatsOf = (e: (typeof sent)[number]) =>
      'node_seats' in e.properties ? [String(e.properties.node_seats)] : []
    const seats = await client.propertyBreakdown({ ...range, property: 'node_seats' })
    expect(seats.data).toEqual(count('value', seatsOf))
    expect(seats.data[0]).toEqual({ value: '3', events: 3, visitors: 2 })

    const second = await client.propertyBreakdown({ ...range, property: 'node_seats', limit: 1, page: 2 })
    expect(second.data).toEqual(count('value', seatsOf).slice(1, 2))
    expect(second.meta).toEqual({ total: 2, page: 2, pageSize: 1, totalPages: 2 })

    const pro = await client.propertyBreakdown({
      ...range,
      property: 'node_seats',
      filters: [{ parameter: 'properties.node_plan', type: 'equals', value: ['pro'] }],
    })
    expect(pro.data).toEqual([{ value: '3', events: 2, visitors: 2 }])

    const error = await client.propertyBreakdown({ ...range, property: '' }).then(
      () => undefined,
      (reason: unknown) => reason,
    )
    expect(error).toBeInstanceOf(PathlightInvalidPayloadError)
    expect((error as PathlightInvalidPayloadError).details.fieldErrors).toHaveProperty('property')
  })
})
