/**
 * 013: `events.property_map` computed by a new expression, for stored and new events alike:
 *
 * - A key given twice (`{"k":1,"k":2}`, valid JSON text) keeps its last value, as `JSON.parse` does,
 *   so the keys report counts the event once and `property_map['k']` is the value the events list
 *   shows. The expression of 009 kept both entries (the keys report counted the event twice, the
 *   value breakdown and filters saw the first value).
 * - A number is written as JavaScript writes the double (`String(x)`): as 009 (ClickHouse's shortest
 *   round-trip digits, plain for 1e-6 <= |x| < 1e21) but with the exponent's sign (`1e+21`, `1e-7`), and
 *   `-0` as `0`. Nested objects and arrays stay the compact JSON text ClickHouse writes (its numbers
 *   without the exponent's `+`).
 *
 * Ingest and both imports store `properties` in canonical text (`@pathlight/protocol`
 * `canonical-properties.ts`) from now on; this migration brings the events stored before to the same
 * reading. Backfill: `MATERIALIZE COLUMN` rewrites the column part by part, waited for, as 009's.
 * The expression is frozen here: a later change is a later migration.
 */
import type { EventsStore } from '../events-store.js'

/** JSON types of a number (ClickHouse `JSONType`). */
const NUMERIC = "('Int64', 'UInt64', 'Double')"

/** A Float64 SQL expression `f` as JavaScript's `String(f)` writes it (finite values). */
const javascriptNumberText = (f: string): string =>
  `if(${f} = 0, '0', replaceRegexpOne(toString(${f}), 'e([0-9])', 'e+\\\\1'))`

/** The canonical text of one raw JSON value `raw` (an SQL expression of its JSON text). */
const canonicalOf = (raw: string): string =>
  `multiIf(JSONType(${raw}) = 'String', JSONExtractString(${raw}), ` +
  `JSONType(${raw}) IN ${NUMERIC}, ${javascriptNumberText(`JSONExtractFloat(${raw})`)}, ${raw})`

/** The top-level (key, raw value) pairs of `properties`, each key's last one only. */
const LAST_PAIRS =
  'arrayFilter((kv, i) -> arrayLastIndex(p -> p.1 = kv.1, pairs) = i, pairs, arrayEnumerate(pairs))'

export const PROPERTY_MAP_TYPE = 'Map(LowCardinality(String), String)'
/** The column's expression: a lambda over the pairs, bound once so each is parsed once per event. */
export const PROPERTY_MAP_EXPRESSION =
  `CAST(arrayMap(kv -> (kv.1, ${canonicalOf('kv.2')}), ` +
  `arrayMap(pairs -> ${LAST_PAIRS}, [JSONExtractKeysAndValuesRaw(properties)])[1]), '${PROPERTY_MAP_TYPE}')`

/** Migration 013: the new expression, then its values for the stored events. */
export const propertyMapCanonical = {
  name: '013-property-map-canonical',
  statements: [
    `ALTER TABLE events MODIFY COLUMN property_map ${PROPERTY_MAP_TYPE} MATERIALIZED ${PROPERTY_MAP_EXPRESSION}`,
  ],
  backfill: rematerializePropertyMap,
} as const

/**
 * Recompute `property_map` of every stored event with the new expression, and wait until every part
 * holds it.
 * @throws the store's error (the migration is then not recorded and runs again at the next start)
 */
export async function rematerializePropertyMap(store: EventsStore): Promise<void> {
  await store.command('ALTER TABLE events MATERIALIZE COLUMN property_map SETTINGS mutations_sync = 2')
}
