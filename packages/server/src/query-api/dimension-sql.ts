/**
 * The Query API's dimensions as SQL over one event row joined with its session's row (`raw-sql.ts`:
 * the event's columns as stored, the session's as `s_<column>`): Plausible's names for visit values
 * (`Desktop`, `Mac`, `Safari` for Mobile Safari, `Direct / None`, `(not set)` for a blank value,
 * `(none)` for a missing custom property), and time buckets in the time zone (of `timestamp`, or of
 * a rollup's `hour`). A visit dimension is
 * the session's first event's value (entry and exit page: its first and last pageview's pathname),
 * over the session's events in the range.
 */
import { COUNTRY_CODES, COUNTRY_NAMES } from './country-names.js'
import type { Binder } from './filter-sql.js'
import type { TimeBucket } from './report-query.js'

/** A blank text as Plausible names it. */
const notSet = (column: string) => `if(${column} = '', '(not set)', ${column})`

/** The stored `events` column behind each visit dimension (the session row has it as `s_<column>`). */
export const visitColumns: Record<string, string> = {
  'visit:entry_page': 'entry_page',
  'visit:exit_page': 'exit_page',
  'visit:source': 'referrer_domain',
  'visit:referrer': 'referrer',
  'visit:channel': 'channel',
  'visit:utm_source': 'utm_source',
  'visit:utm_medium': 'utm_medium',
  'visit:utm_campaign': 'utm_campaign',
  'visit:utm_term': 'utm_term',
  'visit:utm_content': 'utm_content',
  'visit:device': 'device_type',
  'visit:browser': 'browser',
  'visit:browser_version': 'browser_version',
  'visit:os': 'operating_system',
  'visit:os_version': 'operating_system_version',
  'visit:country': 'country',
  'visit:country_name': 'country',
  'visit:region': 'region',
  'visit:region_name': 'region',
  'visit:city': 'city',
  'visit:city_name': 'city',
  'visit:language': 'language',
  'visit:user_id': 'user_id',
}

/** The stored `events` column behind each event dimension. */
const eventColumns: Record<string, string> = {
  'event:page': 'pathname',
  'event:hostname': 'hostname',
  'event:name': 'event_name',
  // Columns of `crawler_requests`, read only by `crawler-sql.ts`.
  'crawler:name': 'agent',
  'crawler:operator': 'operator',
  'crawler:category': 'category',
}

/** The Plausible-named value of a visit dimension. */
export function visitValue(dimension: string): string {
  const s = (column: string) => `s_${column}`
  switch (dimension) {
    case 'visit:source':
      return `multiIf(s_referrer_domain != '', s_referrer_domain, s_utm_source != '', s_utm_source, 'Direct / None')`
    case 'visit:referrer':
      return `if(s_referrer = '', 'Direct / None', concat(domain(s_referrer), path(s_referrer)))`
    case 'visit:device':
      return "multiIf(s_device_type = 'desktop', 'Desktop', s_device_type = 'mobile', 'Mobile', s_device_type = 'tablet', 'Tablet', s_device_type = '', '(not set)', s_device_type)"
    case 'visit:browser':
      return "multiIf(s_browser = 'Mobile Safari', 'Safari', s_browser = 'Mobile Chrome', 'Chrome', s_browser = 'Mobile Firefox', 'Firefox', s_browser = '', '(not set)', s_browser)"
    case 'visit:os':
      return "multiIf(s_operating_system IN ('Mac OS', 'macOS'), 'Mac', s_operating_system = 'Linux', 'GNU/Linux', s_operating_system = '', '(not set)', s_operating_system)"
    default:
      return notSet(s(visitColumns[dimension] as string))
  }
}

/**
 * A dimension's value for one joined row.
 * @param key the bound parameter of a custom property's key (`event:props:<key>`)
 * @param stored the stored column instead of the Plausible name (a saved segment's filters)
 */
export function dimensionSql(dimension: string, options: { key?: string; stored?: boolean } = {}): string {
  if (dimension.startsWith('event:props:')) {
    const key = options.key as string
    return `if(mapContains(property_map, ${key}), property_map[${key}], '(none)')`
  }
  if (dimension in visitColumns) {
    return options.stored ? `s_${visitColumns[dimension]}` : visitValue(dimension)
  }
  if (dimension === 'event:name' && !options.stored) {
    return "multiIf(type = 'pageview', 'pageview', type = 'outbound', 'Outbound Link: Click', event_name)"
  }
  if (dimension === 'crawler:verified') return "if(verified, 'true', 'false')"
  const column = eventColumns[dimension]
  if (column === undefined) throw new Error(`No SQL for dimension ${dimension}`)
  return column
}

/**
 * A time bucket's label for one row, in the zone: `YYYY-MM-DD hh:00:00` for hours, `YYYY-MM-DD` for
 * days, and for weeks (from Monday) and months their first day, or the range's first day when the
 * range starts inside the week or month (bound as `{first_day:Date}`).
 */
export function timeBucketSql(bucket: TimeBucket, timeZone: string, column = 'timestamp'): string {
  const zone = `'${timeZone.replace(/'/g, '')}'`
  switch (bucket) {
    case 'hour':
      return `formatDateTime(toStartOfHour(${column}, ${zone}), '%Y-%m-%d %H:00:00', ${zone})`
    case 'day':
      return `toString(toDate(${column}, ${zone}))`
    case 'week':
      return `toString(greatest(toMonday(${column}, ${zone}), {first_day:Date}))`
    case 'month':
      return `toString(greatest(toStartOfMonth(${column}, ${zone}), {first_day:Date}))`
  }
}

/**
 * A time bucket's grouping key for one row, cheaper to group by than its label
 * (`timeBucketSql`) and one to one with it: the zone's day (a `Date`) for days, the week's or month's
 * first day (the range's first day at most, `{first_day:Date}`) for weeks and months, and the label
 * itself for hours (two UTC hours share a label on the night the clocks go back).
 */
export function timeBucketKeySql(bucket: TimeBucket, timeZone: string, column: string): string {
  const zone = `'${timeZone.replace(/'/g, '')}'`
  switch (bucket) {
    case 'hour':
      return timeBucketSql(bucket, timeZone, column)
    case 'day':
      return `toDate(${column}, ${zone})`
    case 'week':
      return `greatest(toMonday(${column}, ${zone}), {first_day:Date})`
    case 'month':
      return `greatest(toStartOfMonth(${column}, ${zone}), {first_day:Date})`
  }
}

/** A time bucket's label (`timeBucketSql`'s text) from its key (`timeBucketKeySql`). */
export const timeBucketLabelSql = (bucket: TimeBucket, key: string): string =>
  bucket === 'hour' ? key : `toString(${key})`

/** `visit:country_name`: the English name of the session's country (its code when unnamed). */
export function countryNameSql(binder: Binder): string {
  return `transform(s_country, ${binder.bind(COUNTRY_CODES, 'Array(String)')}, ${binder.bind(COUNTRY_NAMES, 'Array(String)')}, if(s_country = '', '(not set)', s_country))`
}
