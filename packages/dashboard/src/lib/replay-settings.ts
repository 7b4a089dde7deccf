/**
 * The session replay settings as the site settings form shows them: the sample rate (the API's
 * `replaySampleRate`, 0-1) as a percentage 0-100, and the server's messages about it in those terms.
 */

/** A sample rate as the form's percentage text: 1 → '100', 0.25 → '25', 0.3333 → '33.33'. */
export function percentText(rate: number): string {
  return String(Number((rate * 100).toFixed(2)))
}

/**
 * The sample rate of the form's percentage text. Text still showing `saved` (as `percentText` wrote
 * it) gives `saved` itself, so an untouched field is never a change; text that is not a number gives
 * NaN, which the server refuses (sent as null), rather than a silent 0.
 */
export function rateFromPercentText(text: string, saved: number): number {
  const trimmed = text.trim()
  if (trimmed === percentText(saved)) return saved
  if (trimmed === '') return Number.NaN
  return Number(trimmed) / 100
}

/** The server's errors of `replaySampleRate` (stated for 0-1) restated for the percentage field. */
export function sampleRateErrors(errors: string[] | undefined): string[] | undefined {
  return errors && errors.length > 0 ? ['Enter a percentage from 0 to 100.'] : undefined
}
