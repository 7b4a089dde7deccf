/** A goal's condition in words, for listings. */
import type { GoalInput } from '@pathlight/protocol'

/**
 * 'Visit /pricing', 'Visit a page starting with /blog/', 'Scroll 75 % of /pricing', 'Scroll 50 % of a
 * page starting with /blog/', 'Event signup with plan = pro'.
 */
export function describeGoal(goal: GoalInput): string {
  if (goal.goalType === 'path') {
    const { pathPattern: pattern, scrollDepth } = goal.config
    const page = pattern.endsWith('*') ? `a page starting with ${pattern.slice(0, -1)}` : pattern
    if (scrollDepth !== undefined) return `Scroll ${scrollDepth} % of ${page}`
    return `Visit ${page}`
  }
  const { eventName, eventPropertyKey, eventPropertyValue } = goal.config
  return eventPropertyKey === undefined
    ? `Event ${eventName}`
    : `Event ${eventName} with ${eventPropertyKey} = ${String(eventPropertyValue)}`
}
