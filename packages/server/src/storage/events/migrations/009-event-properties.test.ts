import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseQueryParams } from '../../../query/params.js'
import { queryPropertyBreakdown } from '../../../query/property-breakdown.js'
import { queryPropertyKeys } from '../../../query/property-keys.js'
import type { ReportScope } from '../../../query/report-scope.js'
import { openTestEventsStore } from '../../../testing/test-events-store.js'
import { eventRow } from '../event-row.fixture.js'
import type { EventRow } from '../event-row.js'
import type { EventsStore } from '../events-store.js'
import { migrateEvents } from './index.js'

const SITE = 9

/**
 * Properties texts with ties across value types: 3, "3", 3.0 and 3e0 are one value "3"; true and
 * "true" one value "true"; null, nested objects and arrays, an empty string; and texts that are not
 * a JSON object (no properties at all).
 */
const PROPERTIES = [
  '{"plan":"pro","seats":3}',
  '{"plan":"pro","seats":"3"}',
  '{"plan":"free","seats":3.0}',
  '{"plan":"free","seats":3e0,"beta":true}',
  '{"plan":"free","seats":3.5,"beta":"true"}',
  '{"plan":null,"seats":-0.5,"beta":false}',
  '{"plan":{"tier":"pro","seats":[1, 2]},"seats":""}',
  '{"plan":[1,"x",{"y":null}]}',
  '{"plan":"Pro"}',
  '{}',
  '',
  'not json',
  '[1,2]',
]

/**
 * The canonical text of each top-level value, computed here in JavaScript for the values above
 * (numbers whose JavaScript text equals ClickHouse's Float64 text; JSON.stringify minifies as
 * ClickHouse's raw extraction does).
 */
function canonical(text: string): Map<string, string> {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return new Map()
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return new Map()
  return new Map(
    Object.entries(parsed).map(([key, value]) => [
      key,
      typeof value === 'string' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value),
    ]),
  )
}

/** Custom events over two months (two partitions, several parts), one visitor per property text. */
const rows: EventRow[] = PROPERTIES.flatMap((properties, i) =>
  [0, 1, 2].map((n) =>
    eventRow({
      site_id: SITE,
      type: 'custom_event',
      event_name: n === 2 ? 'upgrade' : 'signup',
      timestamp: `2026-0${n === 0 ? 3 : 4}-${String(10 + i).padStart(2, '0')}T12:00:00.000Z`,
      session_id: `s${i}-${n}`,
      user_id: `u${i}`,
      properties,
    }),
  ),
)

const scope: ReportScope = {
  siteId: SITE,
  params: parseQueryParams({ start_date: '2026-03-01', end_date: '2026-04-30', limit: '100' }, 0),
}

let dir: string
let events: EventsStore

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-event-properties-'))
  events = await openTestEventsStore(dir)
  // The directory as a release before 009 left it: no column, the migration not recorded.
  await events.command('ALTER TABLE events DROP COLUMN property_map')
  await events.command(
    "ALTER TABLE pathlight_migrations DELETE WHERE name = '009-event-properties' SETTINGS mutations_sync = 2",
  )
  // Three parts: March, April's signups, April's upgrades.
  await events.insert(rows.filter((row) => row.timestamp.startsWith('2026-03')))
  for (const name of ['signup', 'upgrade'])
    await events.insert(rows.filter((row) => row.timestamp.startsWith('2026-04') && row.event_name === name))
  await migrateEvents(events)
}, 120_000)

afterAll(async () => {
  await events?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('migration 009-event-properties', () => {
  it('writes property_map into every part stored before it', async () => {
    // A part lacking the column would compute it on every read; each must list it as stored.
    const parts = await events.query<{ name: string; stored: number }>(
      `SELECT name, name IN (SELECT name FROM system.parts_columns
                             WHERE table = 'events' AND column = 'property_map' AND active) AS stored
       FROM system.parts WHERE table = 'events' AND active`,
    )
    expect(parts.length).toBeGreaterThanOrEqual(3)
    for (const part of parts) expect(Number(part.stored), part.name).toBe(1)
  })

  it('holds the canonical text of each top-level key, for stored and newly inserted events', async () => {
    const fresh = eventRow({ site_id: SITE + 1, type: 'custom_event', properties: PROPERTIES.join('') })
    await events.insert([
      fresh,
      ...PROPERTIES.map((properties) => eventRow({ site_id: SITE + 1, type: 'pageview', properties })),
    ])
    const stored = await events.query<{ properties: string; property_map: Record<string, string> }>(
      'SELECT properties, property_map FROM events WHERE site_id IN ({a:UInt32}, {b:UInt32})',
      { a: SITE, b: SITE + 1 },
    )
    expect(stored).toHaveLength(rows.length + PROPERTIES.length + 1)
    for (const row of stored)
      expect(new Map(Object.entries(row.property_map)), row.properties).toEqual(canonical(row.properties))
  })

  it('gives the property breakdown with 3, "3", 3.0 and 3e0 as one value, against an independent count', async () => {
    for (const [key, eventName] of [
      ['seats', undefined],
      ['plan', undefined],
      ['beta', 'signup'],
    ] as const) {
      const expected = new Map<string, { events: number; visitors: Set<string> }>()
      for (const row of rows) {
        if (eventName !== undefined && row.event_name !== eventName) continue
        const value = canonical(row.properties).get(key)
        if (value === undefined) continue
        const counts = expected.get(value) ?? { events: 0, visitors: new Set<string>() }
        counts.events++
        counts.visitors.add(row.user_id)
        expected.set(value, counts)
      }
      const { data, total } = await queryPropertyBreakdown(events, scope, key, eventName)
      expect(total).toBe(expected.size)
      expect(new Map(data.map((row) => [row.value, { events: row.events, visitors: row.visitors }]))).toEqual(
        new Map(
          [...expected].map(([value, counts]) => [
            value,
            { events: counts.events, visitors: counts.visitors.size },
          ]),
        ),
      )
    }
    const seats = await queryPropertyBreakdown(events, scope, 'seats')
    // 3 (three spellings) and "3": four property texts of three events each.
    expect(seats.data[0]).toMatchObject({ value: '3', events: 12, visitors: 4 })
  })

  it('lists the keys seen, against an independent count', async () => {
    const expected = new Map<string, number>()
    for (const row of rows)
      for (const key of canonical(row.properties).keys()) expected.set(key, (expected.get(key) ?? 0) + 1)
    const { data, total } = await queryPropertyKeys(events, scope)
    expect(total).toBe(expected.size)
    expect(new Map(data.map((row) => [row.key, row.events]))).toEqual(expected)
  })
})
