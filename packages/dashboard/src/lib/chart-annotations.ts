/**
 * Where annotations go on a time series chart: each annotated day in the bucket that holds it (the
 * day's bucket, its week's or month's, or for hourly buckets the day's first hour), annotations of one
 * bucket together. Days before the first bucket are left out; the caller passes the annotations of
 * the chart's range (a day after it would go to the last bucket).
 */
import { dayIn } from './dates'

/** An annotation as the chart needs it: its day (YYYY-MM-DD in the chart's zone) and text. */
export interface ChartAnnotation {
  date: string
  text: string
}

/** The annotations of one bucket. */
export interface PlacedAnnotations {
  /** Index of the bucket in the chart's points. */
  index: number
  /** The bucket's annotations, in the order given. */
  annotations: ChartAnnotation[]
}

/**
 * The bucket of each annotation among `times` (bucket starts, ISO 8601, oldest first, each the start
 * of a bucket that ends where the next begins), grouped by bucket, in bucket order.
 * @param timeZone the zone the days are calendar days of
 */
export function placeAnnotations(
  times: readonly string[],
  annotations: readonly ChartAnnotation[],
  timeZone: string,
): PlacedAnnotations[] {
  const days = times.map((time) => dayIn(Date.parse(time), timeZone))
  const last = days.at(-1)
  const byIndex = new Map<number, ChartAnnotation[]>()
  for (const annotation of annotations) {
    if (last === undefined || annotation.date < (days[0] ?? '')) continue
    // The day's first bucket when it has one (hours), else the last bucket begun by then.
    let index = days.indexOf(annotation.date)
    if (index < 0) index = days.filter((day) => day <= annotation.date).length - 1
    if (index < 0) continue
    byIndex.set(index, [...(byIndex.get(index) ?? []), annotation])
  }
  return [...byIndex.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, list]) => ({ index, annotations: list }))
}
