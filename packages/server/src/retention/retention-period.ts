/**
 * Retention periods: how many whole UTC days of events a site keeps, and the instant before which its
 * events expire. A period is an integer from {@link MIN_RETENTION_DAYS} to {@link MAX_RETENTION_DAYS};
 * null keeps events forever.
 */

/** The shortest period (a month) and the longest that is not "forever" (ten years): the protocol's. */
export { MAX_RETENTION_DAYS, MIN_RETENTION_DAYS } from '@pathlight/protocol'

const DAY_MS = 86_400_000

/**
 * The period that applies to a site: its own, else the operator's default (`RETENTION_DAYS`).
 * @returns whole days, or null to keep forever
 */
export const effectiveRetentionDays = (siteDays: number | null, defaultDays: number | null): number | null =>
  siteDays ?? defaultDays

/**
 * The instant before which events expire: midnight UTC of the current day, minus `days` days. Events at
 * or after it are kept, so a site keeps `days` whole UTC days plus the day in progress.
 * @param now epoch milliseconds
 * @returns epoch milliseconds; e.g. 30 days at 2026-03-31T10:00Z -> 2026-03-01T00:00Z
 */
export function retentionCutoff(now: number, days: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS - days * DAY_MS
}
