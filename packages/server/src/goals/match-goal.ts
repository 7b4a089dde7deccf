/**
 * Whether one event completes a goal, in the process (for `goal.converted` webhooks at ingest time).
 * The same rules as the SQL of `query/goal-condition.ts`, documented in `goals/goal.ts`.
 */
import type { EventRow } from '../storage/events/event-row.js'
import type { GoalDefinition } from './goal.js'

export function matchesGoal(
  goal: GoalDefinition,
  event: Pick<EventRow, 'type' | 'pathname' | 'event_name' | 'properties'>,
): boolean {
  if (goal.goalType === 'path') {
    if (event.type !== 'pageview') return false
    const pattern = goal.config.pathPattern
    return pattern.endsWith('*')
      ? event.pathname.startsWith(pattern.slice(0, -1))
      : event.pathname === pattern
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
