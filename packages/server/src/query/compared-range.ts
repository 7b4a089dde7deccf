/**
 * The range a report compares with, in calendar days (`YYYY-MM-DD`, both ends included), from the
 * requested range and the comparison the request asks for (`compare` of the common parameters):
 * - `previous_period`: the days of equal length that end where the range begins;
 * - `previous_year`: each end a calendar year earlier, 29 February mapped to 28 February;
 * - `custom`: the days the request names;
 * - `none`: no compared range.
 * With `matchDayOfWeek`, the compared range keeps its length and moves so that its first day falls on
 * the weekday of the range's first day: earlier by 0..6 days for `previous_period` (so that it still
 * ends before the range begins), by -3..+3 days (the nearest such day) for the others.
 * Pure arithmetic over day strings: no time zone (the zone turns days into instants elsewhere).
 */
import type { CompareMode } from '@pathlight/protocol'
import { addDays, daysBetween, isoWeekday } from './zoned-time.js'

/** A range of calendar days, both ends included. */
export interface DayRange {
  /** First day, YYYY-MM-DD. */
  startDate: string
  /** Last day (included), YYYY-MM-DD. */
  endDate: string
}

/** The comparison a request asked for. */
export interface CompareRequest {
  mode: CompareMode
  /** The compared range of `custom` (absent otherwise). */
  custom?: DayRange
  /** Move the compared range onto the range's weekdays. */
  matchDayOfWeek: boolean
}

/** The comparison when the request names none: the previous period, weekdays not matched. */
export const defaultComparison: CompareRequest = { mode: 'previous_period', matchDayOfWeek: false }

/** The same month and day a year before `date`; 29 February becomes 28 February. */
export function sameDayYearBefore(date: string): string {
  const year = String(Number(date.slice(0, 4)) - 1).padStart(4, '0')
  const monthDay = date.slice(5)
  return monthDay === '02-29' ? `${year}-02-28` : `${year}-${monthDay}`
}

/**
 * `compared` moved by whole days so that its first day has the weekday of `day`.
 * @param direction `earlier`: by 0..6 days back; `nearest`: by -3..+3 days
 */
export function onWeekdayOf(compared: DayRange, day: string, direction: 'earlier' | 'nearest'): DayRange {
  // 0..6: days from the compared first day's weekday forward to the wanted one.
  const ahead = (((isoWeekday(day) - isoWeekday(compared.startDate)) % 7) + 7) % 7
  const shift = direction === 'earlier' ? (ahead === 0 ? 0 : ahead - 7) : ahead > 3 ? ahead - 7 : ahead
  return { startDate: addDays(compared.startDate, shift), endDate: addDays(compared.endDate, shift) }
}

/**
 * The compared range of `range`, or null for `none`.
 * @param request the comparison asked for (default: the previous period)
 */
export function comparedRange(range: DayRange, request: CompareRequest = defaultComparison): DayRange | null {
  switch (request.mode) {
    case 'none':
      return null
    case 'previous_period': {
      const days = daysBetween(range.startDate, range.endDate) + 1
      const before = { startDate: addDays(range.startDate, -days), endDate: addDays(range.startDate, -1) }
      return request.matchDayOfWeek ? onWeekdayOf(before, range.startDate, 'earlier') : before
    }
    case 'previous_year': {
      const before = {
        startDate: sameDayYearBefore(range.startDate),
        endDate: sameDayYearBefore(range.endDate),
      }
      return request.matchDayOfWeek ? onWeekdayOf(before, range.startDate, 'nearest') : before
    }
    case 'custom': {
      if (!request.custom) throw new Error('a custom comparison needs its range')
      return request.matchDayOfWeek ? onWeekdayOf(request.custom, range.startDate, 'nearest') : request.custom
    }
  }
}
