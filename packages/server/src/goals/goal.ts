/**
 * The Goal resource as the API returns it: a conversion a site wants to count, either visiting a page
 * (path goal) or firing a custom event (event goal), and its mapping from the metadata row.
 */

import { goalTypes } from '@pathlight/protocol'
import { toIso } from '../shared/time.js'
import type { GoalTable } from '../storage/metadata/schema.js'

/** The two kinds of goal. */
export { goalTypes }
/** 'path' or 'event'. */
export type GoalType = (typeof goalTypes)[number]

/**
 * A path goal: a pageview whose pathname equals `pathPattern`, or, when the pattern ends with `*`,
 * starts with what precedes the `*` ('/blog/*' matches '/blog/' and '/blog/a/b', not '/blog').
 * The pattern starts with '/' and holds no other '*'.
 */
export interface PathGoalConfig {
  pathPattern: string
}

/**
 * An event goal: a custom event named `eventName`; with `eventPropertyKey` and `eventPropertyValue`
 * (both or neither), only events whose properties hold that value under that key, by the property's
 * JSON type: a string when its text equals `String(value)`; a number when it equals the value as a
 * number (the value being a number or a decimal string: 3, '3' and '3.0' all match 3 and 3.0); a
 * boolean when its JSON text equals `String(value)` ('true'). A missing key, null, an array or an
 * object never matches.
 */
export interface EventGoalConfig {
  eventName: string
  eventPropertyKey?: string
  eventPropertyValue?: string | number
}

/** What defines a goal: its type and the config of that type. */
export type GoalDefinition =
  | { goalType: 'path'; config: PathGoalConfig }
  | { goalType: 'event'; config: EventGoalConfig }

/** A stored goal, as the API returns it (without conversion figures). */
export type Goal = GoalDefinition & {
  goalId: number
  name: string
  /** ISO 8601 UTC with milliseconds. */
  createdAt: string
}

/** A goal with its conversion figures over a range (spec "Goal"). */
export type GoalWithConversions = Goal & {
  /** Sessions that completed the goal. */
  total_conversions: number
  /** Sessions in the range (after filters). */
  total_sessions: number
  /** total_conversions / total_sessions, a fraction 0..1; 0 when there are no sessions. */
  conversion_rate: number
}

/** A row as selected (goal_id may be a string on PostgreSQL for bigint, a number otherwise). */
export type GoalRow = Omit<GoalTable, 'goal_id'> & { goal_id: number | string }

/** Map a metadata row to the Goal resource. */
export function toGoal(row: GoalRow): Goal {
  const config = JSON.parse(row.config) as PathGoalConfig & EventGoalConfig
  const base = { goalId: Number(row.goal_id), name: row.name, createdAt: toIso(row.created_at) }
  if (row.goal_type === 'path')
    return { ...base, goalType: 'path', config: { pathPattern: config.pathPattern } }
  return {
    ...base,
    goalType: 'event',
    config: {
      eventName: config.eventName,
      ...(config.eventPropertyKey === undefined ? {} : { eventPropertyKey: config.eventPropertyKey }),
      ...(config.eventPropertyValue === undefined ? {} : { eventPropertyValue: config.eventPropertyValue }),
    },
  }
}
