/**
 * Where a chart's line ends: at the bucket holding now. A range that ends today (the "Today" preset,
 * the last 7 days by hour) has buckets still to come, which the API answers as 0; drawn, the line
 * would dive at the current hour as if the visitors had stopped coming.
 */

/**
 * @param times the buckets' starts, oldest first, ISO 8601
 * @param nowMs the present, epoch milliseconds
 * @returns how many of the first buckets have begun by `nowMs` (the one holding it included); all of
 *   them for a range in the past
 */
export function elapsedBuckets(times: readonly string[], nowMs: number): number {
  let count = 0
  for (const time of times) {
    if (!(Date.parse(time) <= nowMs)) break
    count += 1
  }
  return count
}
