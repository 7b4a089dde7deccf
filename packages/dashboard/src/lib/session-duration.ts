/**
 * A session's duration as every report counts it (the server's `session_duration`: the sessions list,
 * the overview's mean): whole seconds from its first to its last event, rounded down, 0 for a single
 * event. The session's own page derives it from the events it lists, so it must round the same way.
 */

/**
 * @param first the first event's time, ISO 8601
 * @param last the last event's time, ISO 8601
 * @returns whole seconds, rounded down; 0 when `last` is not after `first` or a time does not parse
 */
export function sessionDurationSeconds(first: string, last: string): number {
  const ms = Date.parse(last) - Date.parse(first)
  return Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 1000) : 0
}
