/**
 * A time series beside the compared range's series of the same bucket size, aligned by position: the
 * range's first bucket with the compared range's first, the second with the second, and so on (ranges
 * of different lengths, a leap day, a month of 28 against one of 31 days: a point past the compared
 * range's last bucket gets null; compared buckets past the range's last are left out).
 */

/** A point with the compared range's bucket at its position (null past the compared range's end). */
export type ComparedPoint<Point> = Point & { previous: Point | null }

/**
 * Each point of `series` with `previous`, the point of `compared` at the same index.
 * @param series the range's points, oldest first
 * @param compared the compared range's points, oldest first
 */
export function alignCompared<Point extends object>(
  series: readonly Point[],
  compared: readonly Point[],
): ComparedPoint<Point>[] {
  return series.map((point, i) => ({ ...point, previous: compared[i] ?? null }))
}
