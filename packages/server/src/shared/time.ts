/** Clock helpers. Timestamps leave the service as ISO 8601 UTC with milliseconds. */

/** A source of the current time in epoch milliseconds; injected so tests can move time. */
export type Clock = () => number

export const systemClock: Clock = () => Date.now()

/** @returns e.g. '2026-11-22T10:00:00.123Z' */
export const isoNow = (clock: Clock = systemClock): string => new Date(clock()).toISOString()

/** Normalise a stored timestamp (Date, ISO string, or SQLite date text) to ISO 8601 UTC with ms. */
export function toIso(value: Date | string): string {
  const date = value instanceof Date ? value : new Date(value)
  return date.toISOString()
}
