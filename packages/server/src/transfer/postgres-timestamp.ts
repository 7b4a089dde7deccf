/**
 * A timestamp as PostgreSQL writes `timestamptz` in text and CSV output (`2024-03-01 10:00:00.123+00`,
 * `2024-03-01 10:00:00+05:30`), also with `T` and `Z` (ISO 8601). Without a zone the time is read as
 * UTC: Umami on MySQL and ClickHouse stores UTC times without one.
 */

import { calendarError } from './calendar-time.js'

const TIMESTAMP = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d(?::\d\d)?)(\.\d+)?(Z|[+-]\d\d(?::?\d\d)?)?$/i

/**
 * Why text of the timestamp's form names a date or time that does not exist, e.g. `2026-02-30 is not a
 * date (February 2026 has 28 days)`, `hour 24 does not exist (00-23)`, `offset +25 does not exist`;
 * undefined when it exists or the text is not of the form (then the form is what is wrong).
 */
export function impossiblePostgresTimestamp(text: string): string | undefined {
  const match = TIMESTAMP.exec(text)
  if (!match) return undefined
  const [, date = '', time = '', , zone = 'Z'] = match
  const [year = 0, month = 0, day = 0] = date.split('-').map(Number)
  const [hour = 0, minute = 0, second = 0] = time.split(':').map(Number)
  return (
    calendarError({ year, month, day, hour, minute, second }) ??
    (offsetExists(zone) ? undefined : `offset ${zone} does not exist`)
  )
}

/**
 * @returns the instant as an ISO 8601 UTC string with milliseconds (digits beyond ms truncated), or
 *   null when `text` is not such a timestamp, names a date or time that does not exist (2024-02-30,
 *   25:00, an offset beyond ±23:59), or lies before 1970
 */
export function parsePostgresTimestamp(text: string): string | null {
  const match = TIMESTAMP.exec(text)
  if (!match) return null
  const [, date = '', time = '', fraction = '', zone = 'Z'] = match
  if (!offsetExists(zone)) return null
  const local = Date.parse(`${date}T${time}${fraction.slice(0, 4)}Z`)
  // Date.parse rolls 2024-02-30 over to March 1: accept only dates and times that exist as written.
  if (!Number.isFinite(local) || new Date(local).toISOString().slice(0, 10) !== date) return null
  const at = local - offsetMinutes(zone) * 60_000
  return at >= 0 ? new Date(at).toISOString() : null
}

/** Whether an offset's hours are 00-23 and its minutes 00-59 (`+25` is no offset). */
function offsetExists(zone: string): boolean {
  if (zone.toUpperCase() === 'Z') return true
  const digits = zone.slice(1).replace(':', '')
  return Number(digits.slice(0, 2)) <= 23 && Number(digits.slice(2) || '0') <= 59
}

/** `Z`, `+HH`, `+HHMM` or `+HH:MM` as minutes east of UTC. */
function offsetMinutes(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0
  const digits = zone.slice(1).replace(':', '')
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0')
  return zone.startsWith('-') ? -minutes : minutes
}
