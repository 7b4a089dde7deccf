/**
 * Calendar days and wall-clock times in an IANA time zone, mapped to UTC instants with the zone rules
 * of the runtime's ICU data (`Intl`). Reports use these to turn "2026-03-01 .. 2026-03-31 in
 * Europe/Berlin" into a half-open UTC range that the events table's primary key can prune on.
 */

const DAY_MS = 86_400_000

const formatters = new Map<string, Intl.DateTimeFormat>()

/** A cached formatter that prints the zone's wall-clock fields (24-hour clock). */
function wallClock(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    if (formatters.size > 1000) formatters.clear()
    formatters.set(timeZone, formatter)
  }
  return formatter
}

/**
 * The canonical IANA name of a time zone, or null when the runtime does not know it.
 * Case is folded and aliases resolved as ICU does: 'utc' -> 'UTC', 'europe/berlin' -> 'Europe/Berlin',
 * 'US/Eastern' -> 'America/New_York'. ClickHouse's zone names are case-sensitive, so only the
 * canonical form may reach SQL.
 */
export function canonicalTimeZone(name: string): string | null {
  if (name === '' || name.length > 64) return null
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone
  } catch {
    return null
  }
}

/**
 * A time zone as the caller named it, for answers and stored settings (never for SQL: use
 * `canonicalTimeZone`): the caller's name when it is another valid name of the zone (an IANA link such
 * as `Asia/Kolkata`, which ICU canonicalises to `Asia/Calcutta`, or `US/Eastern`), the canonical
 * name when the two differ only in case (`europe/berlin` -> `Europe/Berlin`); null for an unknown zone.
 */
export function timeZoneAsNamed(name: string): string | null {
  const canonical = canonicalTimeZone(name)
  if (canonical === null) return null
  return canonical.toLowerCase() === name.toLowerCase() ? canonical : name
}

/** Wall-clock fields of an instant in a zone. */
export function wallTimeOf(epochMs: number, timeZone: string) {
  const parts: Record<string, number> = {}
  for (const part of wallClock(timeZone).formatToParts(new Date(epochMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value)
  }
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  }
}

/** The zone's offset from UTC at an instant, in ms (Europe/Berlin in summer: +7,200,000). */
export function offsetAt(epochMs: number, timeZone: string): number {
  const w = wallTimeOf(epochMs, timeZone)
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second)
  return asUtc - Math.floor(epochMs / 1000) * 1000
}

/**
 * The UTC instant at which a calendar day starts in a zone: local midnight, or, where a DST change
 * skips midnight (e.g. America/Santiago), the first instant of the day. Where midnight happens twice
 * the earlier one.
 * @param date 'YYYY-MM-DD'
 * @returns epoch milliseconds
 */
export function startOfDayIn(date: string, timeZone: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number]
  const wall = Date.UTC(year, month - 1, day)
  // Two offsets at most surround a day: the one before and the one after any transition in it.
  const candidates = [...new Set([offsetAt(wall - DAY_MS, timeZone), offsetAt(wall + DAY_MS, timeZone)])].map(
    (offset) => wall - offset,
  )
  const exact = candidates.filter((t) => {
    const w = wallTimeOf(t, timeZone)
    return w.year === year && w.month === month && w.day === day && w.hour === 0 && w.minute === 0
  })
  if (exact.length > 0) return Math.min(...exact)
  // Midnight does not exist: the day begins at the transition, which is the later candidate.
  return Math.max(...candidates)
}

/** Today's calendar day in a zone, 'YYYY-MM-DD'. @param nowMs epoch ms */
export function dayIn(nowMs: number, timeZone: string): string {
  const w = wallTimeOf(nowMs, timeZone)
  return toDay(Date.UTC(w.year, w.month - 1, w.day))
}

/** 'YYYY-MM-DD' plus `days` calendar days (negative goes back). */
export function addDays(date: string, days: number): string {
  return toDay(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS)
}

/** 'YYYY-MM-DD' plus `months` calendar months, kept on the first of the month. */
export function addMonths(firstOfMonth: string, months: number): string {
  const [year, month] = firstOfMonth.split('-').map(Number) as [number, number]
  return toDay(Date.UTC(year, month - 1 + months, 1))
}

/** Days from `from` to `to` (both 'YYYY-MM-DD'); 0 when equal, negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS)
}

/** Day of the week of a calendar day, 1 = Monday ... 7 = Sunday (ISO 8601). */
export function isoWeekday(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay()
  return day === 0 ? 7 : day
}

const toDay = (epochMs: number): string => new Date(epochMs).toISOString().slice(0, 10)
