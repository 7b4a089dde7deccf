/**
 * The `debug: true` console output: one line per request, answer, failure and retry, each prefixed with
 * `[pathlight]`, with every occurrence of the API key replaced by `[redacted]`.
 */

/** Writes one debug line; a no-op when debugging is off. */
export type DebugLog = (message: string) => void

/** The text that stands in for the API key in debug output. */
export const REDACTED = '[redacted]'

/** A debug logger for one client: `console.log` with the prefix, the key never printed. */
export function createDebugLog(enabled: boolean, apiKey: string): DebugLog {
  if (!enabled) return () => {}
  return (message) => {
    console.log(`[pathlight] ${message.split(apiKey).join(REDACTED)}`)
  }
}
