/**
 * The period a report covers: the last full week (Monday to Sunday) or calendar month before `now`,
 * as calendar days of the report's time zone; and the period it is compared with: the week before, or
 * the calendar month before (of its own length).
 */
import type { EmailReportFrequency, EmailReportPeriod } from '@pathlight/protocol'
import { addDays, addMonths, dayIn, isoWeekday } from '../query/zoned-time.js'

/**
 * The last full period that ended before the day `nowMs` falls on in `timeZone`.
 * @param timeZone canonical IANA name
 * @returns first and last day (included), 'YYYY-MM-DD'
 */
export function lastFullPeriod(
  frequency: EmailReportFrequency,
  timeZone: string,
  nowMs: number,
): EmailReportPeriod {
  const today = dayIn(nowMs, timeZone)
  if (frequency === 'weekly') {
    const thisMonday = addDays(today, 1 - isoWeekday(today))
    return { startDate: addDays(thisMonday, -7), endDate: addDays(thisMonday, -1) }
  }
  const firstOfMonth = `${today.slice(0, 8)}01`
  return { startDate: addMonths(firstOfMonth, -1), endDate: addDays(firstOfMonth, -1) }
}

/** The period a report's figures are compared with: the week, or the calendar month, before `period`. */
export function periodBefore(frequency: EmailReportFrequency, period: EmailReportPeriod): EmailReportPeriod {
  if (frequency === 'weekly') {
    return { startDate: addDays(period.startDate, -7), endDate: addDays(period.startDate, -1) }
  }
  return { startDate: addMonths(period.startDate, -1), endDate: addDays(period.startDate, -1) }
}
