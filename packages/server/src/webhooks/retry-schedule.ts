/**
 * When to try a failed delivery again. Eight attempts in all over about a day: the first at once,
 * then after 1 min, 5 min, 30 min, 1 h, 3 h, 6 h and 12 h (cumulative ≈ 22.6 h), each delay with
 * ±20 % jitter so that a receiver coming back up is not hit by every retry at the same moment.
 * After the eighth failure the delivery is marked failed (it can still be redelivered by hand).
 */
export const RETRY_DELAYS_MS = [
  60_000, 300_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000,
] as const
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1

/**
 * @param attemptsMade attempts already made, including the one that just failed (1-based)
 * @param random a number in [0, 1) (injectable for tests)
 * @returns milliseconds until the next attempt, or null when no attempt is left
 */
export function nextRetryDelay(attemptsMade: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attemptsMade - 1]
  if (base === undefined) return null
  return Math.round(base * (0.8 + 0.4 * random()))
}
