/**
 * Where a new site's chart begins. A site added within the range had no visitors before it existed,
 * and a run of zeros there reads as "nobody came": Plausible and Umami users expect a new site's
 * graph to begin on the day it was added, not to open with a flat line. So the chart starts at the
 * bucket holding the site's creation, when the range holds it and no data comes before it. Data
 * before the creation (an imported history) means the site's life began earlier: nothing is cut then.
 */
import { dayIn } from './dates'

/**
 * `points` (oldest first, `time` the bucket's start in ISO 8601) from the bucket holding `createdAt`
 * (epoch ms) on, when the site was created on or before `lastDay` (the range's last day, 'YYYY-MM-DD'
 * in `timeZone`), after the first bucket began, and every earlier point's value is 0; else all of them.
 */
export function fromSiteStart<P extends { time: string; value: number }>(
  points: readonly P[],
  createdAt: number,
  lastDay: string,
  timeZone: string,
): P[] {
  if (dayIn(createdAt, timeZone) > lastDay) return [...points]
  // The buckets that began by the creation come first; the last of them holds it.
  const holding = points.filter((p) => Date.parse(p.time) <= createdAt).length - 1
  if (holding <= 0) return [...points]
  if (points.slice(0, holding).some((p) => p.value !== 0)) return [...points]
  return points.slice(holding)
}
