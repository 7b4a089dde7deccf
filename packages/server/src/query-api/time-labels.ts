/**
 * Every time bucket of a range in its zone (`include.time_labels`), labelled as the time dimensions
 * label their rows (`dimension-sql.ts`): hours `YYYY-MM-DD hh:00:00`, days `YYYY-MM-DD`, weeks from
 * Monday and months from the first, the first bucket starting at the range's first day.
 */
import { addDays, addMonths, dayIn, isoWeekday, wallTimeOf } from '../query/zoned-time.js'
import type { ResolvedRange, TimeBucket } from './report-query.js'

const HOUR_MS = 3_600_000
const pad = (n: number) => String(n).padStart(2, '0')

/** The labels, in order, none twice. */
export function timeLabels(range: ResolvedRange, bucket: TimeBucket, timeZone: string): string[] {
  if (range.to <= range.from) return []
  const labels: string[] = []
  if (bucket === 'hour') {
    for (let t = Math.floor(range.from / HOUR_MS) * HOUR_MS; t < range.to; t += HOUR_MS) {
      const w = wallTimeOf(t, timeZone)
      const label = `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:00:00`
      if (labels.at(-1) !== label) labels.push(label)
    }
    return labels
  }
  const first = range.days?.firstDay ?? dayIn(range.from, timeZone)
  const last = range.days?.lastDay ?? dayIn(range.to - 1, timeZone)
  if (bucket === 'day') {
    for (let day = first; day <= last; day = addDays(day, 1)) labels.push(day)
    return labels
  }
  labels.push(first)
  let next =
    bucket === 'week' ? addDays(first, 8 - isoWeekday(first)) : addMonths(`${first.slice(0, 7)}-01`, 1)
  while (next <= last) {
    labels.push(next)
    next = bucket === 'week' ? addDays(next, 7) : addMonths(next, 1)
  }
  return labels
}
