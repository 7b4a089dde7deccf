/**
 * `session_dimension_hours` as it is today (migration 004): one row per (site, UTC hour, session,
 * visitor, and the combination of the `SESSION_DIMENSION_COLUMNS` values among the session's events in
 * that hour), with the events and pageviews of that combination. Migration 004 keeps a frozen copy.
 */

/** The table's name. */
export const SESSION_DIMENSION_HOURS = 'session_dimension_hours'

/**
 * The `events` columns this rollup keeps, each also a column of `session_dimension_hours` with the
 * same name and type (the raw breakdowns' columns: `query/breakdown.ts`).
 */
export const SESSION_DIMENSION_COLUMNS = [
  'country',
  'region',
  'city',
  'language',
  'browser',
  'operating_system',
  'device_type',
  'utm_source',
  'utm_medium',
  'utm_campaign',
] as const

/** One of `SESSION_DIMENSION_COLUMNS`. */
export type SessionDimensionColumn = (typeof SESSION_DIMENSION_COLUMNS)[number]

const columns = SESSION_DIMENSION_COLUMNS.join(', ')

/** The `INSERT ... SELECT` that rolls up the events matching `where` into `session_dimension_hours`. */
export const sessionDimensionHoursInsert = (where: string): string =>
  `INSERT INTO ${SESSION_DIMENSION_HOURS} SELECT
  site_id,
  toStartOfHour(timestamp) AS hour,
  cityHash64(session_id) AS session_key,
  cityHash64(user_id) AS visitor,
  ${columns},
  count() AS event_count,
  countIf(type = 'pageview') AS pageview_count
FROM events WHERE ${where} GROUP BY site_id, hour, session_key, visitor, ${columns}`
