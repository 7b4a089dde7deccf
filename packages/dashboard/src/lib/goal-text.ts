/** A goal's condition in words, for listings. */
import type { GoalInput } from '@pathlight/protocol'

/** 'Visit /pricing', 'Visit a page starting with /blog/', 'Event signup with plan = pro'. */
export function describeGoal(goal: GoalInput): string {
  if (goal.goalType === 'path') {
    const pattern = goal.config.pathPattern
    return pattern.endsWith('*') ? `Visit a page starting with ${pattern.slice(0, -1)}` : `Visit ${pattern}`
  }
  const { eventName, eventPropertyKey, eventPropertyValue } = goal.config
  return eventPropertyKey === undefined
    ? `Event ${eventName}`
    : `Event ${eventName} with ${eventPropertyKey} = ${String(eventPropertyValue)}`
}
