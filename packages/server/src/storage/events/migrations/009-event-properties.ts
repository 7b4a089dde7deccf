/**
 * 009: `events.property_map`, each event's top-level custom properties as a
 * `Map(LowCardinality(String), String)` of key -> canonical text, so that property filters, the keys
 * report and the property breakdown read a column instead of parsing `properties` (JSON text) per
 * event and per query.
 *
 * The column is MATERIALIZED: ClickHouse computes it from `properties` on every insert, so ingest,
 * imports and any other writer fill it without a change, and `SELECT *` and inserts naming their
 * columns are unaffected. The canonical text is the one reports always used (`propertyValueSql` of
 * `query/filters.ts` before this column, which a test holds equal to this): a string as it is, a
 * number as ClickHouse writes a Float64 (`3`, `3.0` and `3e0` are all "3", as is the string "3"),
 * `true`/`false`/`null` as their JSON word, an object or array as its JSON text. `properties` that
 * is not a JSON object gives an empty map.
 *
 * Backfill: the stored events get the column through `MATERIALIZE COLUMN`, a mutation rewriting each
 * part with the new column (part by part, so memory stays bounded), waited for (`mutations_sync = 2`)
 * so that the migration is recorded only once every part holds it. Both statements can run again
 * after being cut off.
 */
import type { EventsStore } from '../events-store.js'

/** JSON types of a number (ClickHouse `JSONType`). */
const NUMERIC = "('Int64', 'UInt64', 'Double')"

/** The canonical text of one raw JSON value `raw` (an SQL expression of its JSON text). */
const canonicalOf = (raw: string): string =>
  `multiIf(JSONType(${raw}) = 'String', JSONExtractString(${raw}), ` +
  `JSONType(${raw}) IN ${NUMERIC}, toString(JSONExtractFloat(${raw})), ${raw})`

/** The column's type and the expression computing it from `properties`. */
export const PROPERTY_MAP_TYPE = 'Map(LowCardinality(String), String)'
export const PROPERTY_MAP_EXPRESSION = `CAST(arrayMap(kv -> (kv.1, ${canonicalOf('kv.2')}), JSONExtractKeysAndValuesRaw(properties)), '${PROPERTY_MAP_TYPE}')`

/** Migration 009: the materialized column, then its values for the stored events. */
export const eventPropertiesColumn = {
  name: '009-event-properties',
  statements: [
    `ALTER TABLE events ADD COLUMN IF NOT EXISTS property_map ${PROPERTY_MAP_TYPE} MATERIALIZED ${PROPERTY_MAP_EXPRESSION}`,
  ],
  backfill: materializePropertyMap,
} as const

/**
 * Compute `property_map` for the events stored before the column existed, and wait until every part
 * holds it.
 * @throws the store's error (the migration is then not recorded and runs again at the next start)
 */
export async function materializePropertyMap(store: EventsStore): Promise<void> {
  await store.command('ALTER TABLE events MATERIALIZE COLUMN property_map SETTINGS mutations_sync = 2')
}
