/**
 * Plausible's `date_range` resolved in a time zone against the clock, and the compared range of
 * `include.comparisons`. Names (days in the time zone, today being the clock's day there):
 * `day` today; `7d`, `28d`, `30d`, `91d` the N days before today (today left out, as Plausible);
 * `month` and `year` from the first of the month or year to today; `6mo` and `12mo` the current
 * month and the 5 or 11 before it, to today; `all` from the day of the site's first event to today.
 * Two dates: those days, both included. Two date-times: from the first, through the second (its
 * last second, or millisecond when it has fractions, included).
 */
import type { DateRangeName } from '@pathlight/protocol'
import { addDays, addMonths, dayIn, daysBetween, isoWeekday, startOfDayIn } from '../query/zoned-time.js'
import type { ResolvedRange, TimeBucket } from './report-query.js'

/** A range of whole days in a zone. */
export function daysRange(firstDay: string, lastDay: string, timeZone: string): ResolvedRange {
  return {
    from: startOfDayIn(firstDay, timeZone),
    to: startOfDayIn(addDays(lastDay, 1), timeZone),
    days: { firstDay, lastDay },
  }
}

/**
 * @param firstEventDay the day of the site's first event in the zone (for `all`; today when none)
 */
export function resolveDateRange(
  dateRange: DateRangeName | readonly [string, string],
  nowMs: number,
  timeZone: string,
  firstEventDay: () => Promise<string | null>,
): Promise<ResolvedRange> | ResolvedRange {
  const today = dayIn(nowMs, timeZone)
  const month = `${today.slice(0, 7)}-01`
  if (typeof dateRange !== 'string') {
    const [start, end] = dateRange
    if (start.length === 10) return daysRange(start, end, timeZone)
    const precision = /\.\d+/.test(end) ? 1 : /T\d{2}:\d{2}(Z|[+-])/.test(end) ? 60_000 : 1000
    return { from: Date.parse(start), to: Date.parse(end) + precision, days: null }
  }
  const lastDays = (n: number) => daysRange(addDays(today, -n), addDays(today, -1), timeZone)
  switch (dateRange) {
    case 'day':
      return daysRange(today, today, timeZone)
    case '7d':
      return lastDays(7)
    case '28d':
      return lastDays(28)
    case '30d':
      return lastDays(30)
    case '91d':
      return lastDays(91)
    case 'month':
      return daysRange(month, today, timeZone)
    case '6mo':
      return daysRange(addMonths(month, -5), today, timeZone)
    case '12mo':
      return daysRange(addMonths(month, -11), today, timeZone)
    case 'year':
      return daysRange(`${today.slice(0, 4)}-01-01`, today, timeZone)
    case 'all':
      return firstEventDay().then((first) =>
        daysRange(first !== null && first < today ? first : today, today, timeZone),
      )
  }
}

/**
 * The compared range: `previous_period` the same length just before (as many days when the range is
 * days; with `match_day_of_week`, moved back to whole weeks so weekdays line up), `year_over_year`
 * the same days a year earlier, `custom` its own dates.
 */
export function comparedRange(
  range: ResolvedRange,
  mode: 'previous_period' | 'year_over_year' | 'custom',
  timeZone: string,
  options: { customRange?: readonly [string, string]; matchDayOfWeek?: boolean } = {},
): ResolvedRange {
  if (mode === 'custom' && options.customRange) {
    const [start, end] = options.customRange
    if (start.length === 10) return daysRange(start, end, timeZone)
    return { from: Date.parse(start), to: Date.parse(end) + 1000, days: null }
  }
  if (range.days === null) {
    const length = range.to - range.from
    const back = mode === 'year_over_year' ? 365 * 86_400_000 : length
    return { from: range.from - back, to: range.to - back, days: null }
  }
  const { firstDay, lastDay } = range.days
  if (mode === 'year_over_year') {
    const yearBack = (day: string) =>
      `${Number(day.slice(0, 4)) - 1}${day.slice(4)}`.replace(/-02-29$/, '-02-28')
    return daysRange(yearBack(firstDay), yearBack(lastDay), timeZone)
  }
  const length = daysBetween(firstDay, lastDay) + 1
  let back = length
  if (options.matchDayOfWeek) back = Math.ceil(length / 7) * 7
  const start = addDays(firstDay, -back)
  if (options.matchDayOfWeek && isoWeekday(start) !== isoWeekday(firstDay)) throw new Error('weekday drift')
  return daysRange(start, addDays(start, length - 1), timeZone)
}

/** The bucket `time` stands for: hours up to two days, days up to 100 days, months beyond. */
export function autoBucket(range: ResolvedRange): TimeBucket {
  const days = (range.to - range.from) / 86_400_000
  if (days <= 2) return 'hour'
  if (days <= 100) return 'day'
  return 'month'
}
