/**
 * The period a report covers: the last full week (Monday to Sunday) or calendar month before `now`,
 * as calendar days of the report's time zone.
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
