import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { canonicalPropertiesText } from '@pathlight/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openChdbStore } from '../chdb-store.js'
import { eventRow } from '../event-row.fixture.js'
import type { EventsStore } from '../events-store.js'
import { PROPERTY_MAP_EXPRESSION as EXPRESSION_009, PROPERTY_MAP_TYPE } from './009-event-properties.js'
import { migrateEvents } from './index.js'

const SITE = 12

/** Doubles over the whole range of exponents (a fixed seed), both signs, and the edges of the text form. */
function doubles(): number[] {
  let seed = 12_345
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
    return seed / 2 ** 31
  }
  const values = [1e21, 1e-7, 1e-6, 0.000001234, 2 ** 53 + 1, 2 ** 53 + 2, 123456789012345680000, 5e-324]
  values.push(1.7976931348623157e308, 0.1 + 0.2, 2.5, 100, 1e20, 999999999999999900000)
  for (let i = 0; i < 300; i++) {
    const x = (random() * 10) ** (random() * 60 - 30) * (random() < 0.5 ? -1 : 1)
    values.push(i % 3 === 0 ? Math.round(x) : x)
  }
  return values
}

function storedText(text: string): string {
  const canonical = canonicalPropertiesText(text)
  if (!('text' in canonical)) throw new Error(canonical.error)
  return canonical.text
}

/** Properties texts stored before 013: keys given twice, numbers in several spellings, nesting. */
const TEXTS = [
  '{"k":1,"k":2}',
  '{"k":"a","j":true,"k":"b","k":"c"}',
  '{"n":1e21}',
  '{"n":-0}',
  '{"n":3.0,"m":{"a":1}}',
  '{"n":1E-7,"s":"1e21"}',
  // As ingest stores them (whole numbers from 2^63 on in exponent form, which ClickHouse reads).
  ...doubles().map((x) => storedText(`{"x":${String(x)}}`)),
]

/** The map as plain code reads a text: JSON.parse (last key wins), numbers as String(x), -0 as 0. */
function expectedMap(text: string): Record<string, string> {
  const parsed = JSON.parse(text) as Record<string, unknown>
  return Object.fromEntries(
    Object.entries(parsed).map(([key, value]) => [
      key,
      typeof value === 'string'
        ? value
        : typeof value === 'number'
          ? String(value === 0 ? 0 : value)
          : JSON.stringify(value),
    ]),
  )
}

let dir: string
let events: EventsStore

const storedMaps = () =>
  events.query<{ properties: string; property_map: Record<string, string> }>(
    'SELECT properties, property_map FROM events WHERE site_id = {site:UInt32}',
    { site: SITE },
  )

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-property-map-013-'))
  events = await openChdbStore(dir)
  // The directory as a release before 013 left it: 009's expression, the migration not recorded.
  await events.command(
    `ALTER TABLE events MODIFY COLUMN property_map ${PROPERTY_MAP_TYPE} MATERIALIZED ${EXPRESSION_009}`,
  )
  await events.command(
    "ALTER TABLE pathlight_migrations DELETE WHERE name = '013-property-map-canonical' SETTINGS mutations_sync = 2",
  )
  await events.insert(
    TEXTS.map((properties) => eventRow({ site_id: SITE, type: 'custom_event', properties })),
  )
}, 120_000)

afterAll(async () => {
  await events?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('migration 013-property-map-canonical', () => {
  it('rewrites the stored events: each key once with its last value, numbers as JavaScript writes them', async () => {
    const keysOfK = async () =>
      Number(
        (
          await events.query<{ keys: number }>(
            "SELECT count() AS keys FROM events ARRAY JOIN mapKeys(property_map) AS key WHERE site_id = {site:UInt32} AND key = 'k'",
            { site: SITE },
          )
        )[0]?.keys,
      )
    // 009 kept every entry of a repeated key: 2 + 3 entries of k in two events.
    expect(await keysOfK()).toBe(5)
    await migrateEvents(events)
    const after = await storedMaps()
    expect(after).toHaveLength(TEXTS.length)
    for (const row of after) expect(row.property_map, row.properties).toEqual(expectedMap(row.properties))
    expect(await keysOfK()).toBe(2)
  })

  it('computes the same for events inserted after it', async () => {
    await events.insert(
      TEXTS.map((properties) => eventRow({ site_id: SITE + 1, type: 'custom_event', properties })),
    )
    const rows = await events.query<{ properties: string; property_map: Record<string, string> }>(
      'SELECT properties, property_map FROM events WHERE site_id = {site:UInt32}',
      { site: SITE + 1 },
    )
    expect(rows).toHaveLength(TEXTS.length)
    for (const row of rows) expect(row.property_map, row.properties).toEqual(expectedMap(row.properties))
  })
})
