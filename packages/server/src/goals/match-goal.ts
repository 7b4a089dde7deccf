/**
 * Whether one event completes a goal, in the process (for `goal.converted` webhooks at ingest time).
 * The same rules as the SQL of `query/goal-condition.ts`, documented in `goals/goal.ts`.
 */
import type { EventRow } from '../storage/events/event-row.js'
import type { GoalDefinition } from './goal.js'

/**
 * Whether `event` completes `goal`: a path goal by a pageview of a matching pathname (a scroll-depth
 * goal by an engagement event of one that reached the depth), an event goal by a custom event of that
 * name (and property value).
 */
export function matchesGoal(
  goal: GoalDefinition,
  event: Pick<EventRow, 'type' | 'pathname' | 'event_name' | 'properties'>,
): boolean {
  if (goal.goalType === 'path') {
    const { pathPattern: pattern, scrollDepth } = goal.config
    if (event.type !== (scrollDepth === undefined ? 'pageview' : 'engagement')) return false
    const path = pattern.endsWith('*')
      ? event.pathname.startsWith(pattern.slice(0, -1))
      : event.pathname === pattern
    return path && (scrollDepth === undefined || scrollDepthOf(event.properties) >= scrollDepth)
  }
  if (event.type !== 'custom_event' || event.event_name !== goal.config.eventName) return false
  const { eventPropertyKey: key, eventPropertyValue: expected } = goal.config
  if (key === undefined || expected === undefined) return true
  let properties: unknown
  try {
    properties = event.properties === '' ? {} : JSON.parse(event.properties)
  } catch {
    return false
  }
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return false
  const actual = (properties as Record<string, unknown>)[key]
  if (typeof actual === 'string' || typeof actual === 'boolean') return String(actual) === String(expected)
  if (typeof actual === 'number') {
    const number =
      typeof expected === 'number' ? expected : /^-?\d+(\.\d+)?$/.test(expected) ? Number(expected) : null
    return number !== null && actual === number
  }
  return false
}

/**
 * The scroll depth (percent, 0-100) of an engagement row's `properties` (`{"scroll_depth": n, ...}`,
 * `ingest/to-event-row.ts`), read as the events table's materialized column does: a whole number capped
 * at 100, 0 when absent or not a number.
 */
function scrollDepthOf(properties: string): number {
  try {
    const value = (JSON.parse(properties) as { scroll_depth?: unknown } | null)?.scroll_depth
    return typeof value === 'number' && value > 0 ? Math.min(100, Math.floor(value)) : 0
  } catch {
    return 0
  }
}
