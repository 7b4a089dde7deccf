/**
 * Calendar checks for imported timestamps. `Date.parse` rolls impossible dates and times over
 * (`2026-02-30` becomes March 2, `24:00` the next day) and so would store an event on another day
 * than the one written; these functions accept a date and time only if they exist as written.
 */

const ISO_WITH_ZONE = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.\d{1,9})?)?(Z|[+-](\d\d):?(\d\d))$/i

/** Days in `month` (1-12) of `year` (proleptic Gregorian: leap years every 4, not 100, yes 400). */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
}

/**
 * Why a calendar date and time of day do not exist, or undefined when they do.
 * @param parts year, month (1-12), day, hour (0-23), minute and second (0-59) as written
 * @returns e.g. `2026-02-30 is not a date (February 2026 has 28 days)`, `hour 24 does not exist (00-23)`
 */
export function calendarError(parts: {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
}): string | undefined {
  const { year, month, day, hour, minute, second } = parts
  const date = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
  if (month < 1 || month > 12) return `${date} is not a date (month ${month} does not exist)`
  const days = daysInMonth(year, month)
  if (day < 1 || day > days) {
    const name = new Date(Date.UTC(2000, month - 1, 1)).toLocaleString('en', {
      month: 'long',
      timeZone: 'UTC',
    })
    return `${date} is not a date (${name} ${year} has ${days} days)`
  }
  if (hour > 23) return `hour ${hour} does not exist (00-23)`
  if (minute > 59) return `minute ${minute} does not exist (00-59)`
  if (second > 59) return `second ${second} does not exist (00-59)`
  return undefined
}

const FORM = 'must be an ISO 8601 date-time with Z or an offset'

/**
 * Why `text` is not an ISO 8601 date-time with `Z` or an offset (`2026-03-01T10:00:00.123+01:00`;
 * seconds and fraction optional) whose date and time exist as written; undefined when it is one.
 * @returns e.g. `must be a date and time that exist: 2026-02-30 is not a date (February 2026 has 28
 *   days)`, or `must be an ISO 8601 date-time with Z or an offset` (another form, an offset beyond ±23:59)
 */
export function isoTimestampError(text: unknown): string | undefined {
  if (typeof text !== 'string') return FORM
  const match = ISO_WITH_ZONE.exec(text)
  if (!match) return FORM
  const [, year = '', month = '', day = '', hour = '', minute = '', second = '0', , zoneHours, zoneMinutes] =
    match
  const wrong = calendarError({
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second),
  })
  if (wrong) return `must be a date and time that exist: ${wrong}`
  if (zoneHours !== undefined && (Number(zoneHours) > 23 || Number(zoneMinutes) > 59)) {
    return `${FORM}: the offset must lie within ±23:59`
  }
  return Number.isFinite(Date.parse(text)) ? undefined : FORM
}

/**
 * Parse an ISO 8601 date-time with `Z` or an offset whose date and time exist (see `isoTimestampError`).
 * @returns `{at}`: epoch milliseconds (digits beyond ms truncated), or `{error}`: why it was refused
 *   (the reasons of `isoTimestampError`, or `must not be before 1970`)
 */
export function parseIsoTimestamp(text: unknown): { at: number } | { error: string } {
  const error = isoTimestampError(text)
  if (error !== undefined) return { error }
  const at = Date.parse(text as string)
  return at < 0 ? { error: 'must not be before 1970' } : { at }
}
