/**
 * Instants as the events table holds them: `DateTime64(3, 'UTC')`, whose text form is
 * '2026-11-22 10:00:00.123' (no zone, no 'T'). Every query parameter and every result timestamp of the
 * events store goes through these two functions.
 */

/**
 * An instant as ClickHouse DateTime64(3) text in UTC.
 * @param instant ISO 8601 UTC with milliseconds ('2026-11-22T10:00:00.123Z') or epoch milliseconds
 * @returns '2026-11-22 10:00:00.123'
 */
export function toClickHouseTime(instant: string | number): string {
  const iso = typeof instant === 'number' ? new Date(instant).toISOString() : instant
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`
}

/** ClickHouse DateTime64(3, 'UTC') text ('2026-11-22 10:00:00.123') as ISO 8601 UTC ('2026-11-22T10:00:00.123Z'). */
export const fromClickHouseTime = (text: string): string => `${text.replace(' ', 'T')}Z`
