/**
 * `event_hours` as it is today (migration 003, its view narrowed by 004): one row per (site, UTC
 * hour, dimension, value) for the site's total (dimension and value ''), pathnames of pageviews and
 * names of custom events, with events, pageviews and custom events counted exactly and visitors and
 * sessions as `uniqCombined64` states. Migrations keep frozen copies of what they created.
 */

/** The table's name. */
export const EVENT_HOURS = 'event_hours'

const eventHoursSelect = `SELECT
  site_id,
  dimension_value.1 AS dimension,
  toStartOfHour(timestamp) AS hour,
  dimension_value.2 AS value,
  count() AS event_count,
  countIf(type = 'pageview') AS pageview_count,
  countIf(type = 'custom_event') AS custom_event_count,
  uniqCombined64State(cityHash64(user_id)) AS visitor_state,
  uniqCombined64State(cityHash64(session_id)) AS session_state
FROM events
ARRAY JOIN arrayConcat(
  [('', '')],
  if(type = 'pageview', [('pathname', pathname)], []),
  if(type = 'custom_event', [('event_name', event_name)], [])
) AS dimension_value`

/** The `INSERT ... SELECT` rolling up the events matching `where` (a condition on `events`) into `event_hours`. */
export const eventHoursInsert = (where: string): string =>
  `INSERT INTO ${EVENT_HOURS} ${eventHoursSelect} WHERE ${where} GROUP BY site_id, dimension, hour, value`
