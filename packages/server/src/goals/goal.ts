/**
 * The Goal resource as the API returns it: a conversion a site wants to count, either visiting a page
 * (path goal), scrolling a page to a depth (a path goal with `scrollDepth`) or firing a custom event
 * (event goal), and its mapping from the metadata row.
 */

import type {
  GoalConfig,
  EventGoalConfig as WireEventGoalConfig,
  Goal as WireGoal,
  GoalType as WireGoalType,
  PathGoalConfig as WirePathGoalConfig,
} from '@pathlight/protocol'
import { goalTypes } from '@pathlight/protocol'
import { toIso } from '../shared/time.js'
import type { GoalTable } from '../storage/metadata/schema.js'

/** The two kinds of goal. */
export { goalTypes }
/** 'path' or 'event'. */
export type GoalType = WireGoalType

/**
 * A path goal: a pageview whose pathname equals `pathPattern`, or, when the pattern ends with `*`,
 * starts with what precedes the `*` ('/blog/*' matches '/blog/' and '/blog/a/b', not '/blog').
 * The pattern starts with '/' and holds no other '*'.
 * With `scrollDepth` (a whole percent 1-100) it is a scroll-depth goal instead: met by an `engagement`
 * event of a matching pathname whose `scroll_depth` is at least `scrollDepth` ("read 75 % of
 * /pricing"), not by the pageview. The protocol's `PathGoalConfig`.
 */
export type PathGoalConfig = WirePathGoalConfig

/**
 * An event goal: a custom event named `eventName`; with `eventPropertyKey` and `eventPropertyValue`
 * (both or neither), only events whose properties hold that value under that key, by the property's
 * JSON type: a string when its text equals `String(value)`; a number when it equals the value as a
 * number (the value being a number or a decimal string: 3, '3' and '3.0' all match 3 and 3.0); a
 * boolean when its JSON text equals `String(value)` ('true'). A missing key, null, an array or an
 * object never matches. The protocol's `EventGoalConfig`.
 */
export type EventGoalConfig = WireEventGoalConfig

/** What defines a goal: its type and the config of that type (the protocol's `GoalConfig`). */
export type GoalDefinition = GoalConfig

/** A goal with its conversion figures over a range: the protocol's `Goal`. */
export type GoalWithConversions = WireGoal

/** A stored goal, as the API returns it without conversion figures (`createdAt` ISO 8601 UTC). */
export type Goal = GoalWithConversions extends infer G
  ? G extends WireGoal
    ? Omit<G, 'total_conversions' | 'total_sessions' | 'conversion_rate'>
    : never
  : never

/** A row as selected (goal_id may be a string on PostgreSQL for bigint, a number otherwise). */
export type GoalRow = Omit<GoalTable, 'goal_id'> & { goal_id: number | string }

/** Map a metadata row to the Goal resource. */
export function toGoal(row: GoalRow): Goal {
  const config = JSON.parse(row.config) as PathGoalConfig & EventGoalConfig
  const base = { goalId: Number(row.goal_id), name: row.name, createdAt: toIso(row.created_at) }
  if (row.goal_type === 'path')
    return {
      ...base,
      goalType: 'path',
      config: {
        pathPattern: config.pathPattern,
        ...(config.scrollDepth === undefined ? {} : { scrollDepth: config.scrollDepth }),
      },
    }
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
