/**
 * The Funnel resource: an ordered list of 2 to 10 steps, each a goal condition (a pageview of a path
 * pattern, or scrolling such a page to a depth, or a custom event, optionally with one property value; see `goals/goal.ts` for what each
 * matches), and its mapping from the metadata row. What a funnel counts: `query/funnel-matches.ts`.
 */

import type { Funnel, FunnelStep } from '@pathlight/protocol'
import type { GoalDefinition } from '../goals/goal.js'
import { toIso } from '../shared/time.js'
import type { FunnelTable } from '../storage/metadata/schema.js'

/** A step (a goal condition with an optional display name) and a stored funnel: the protocol's wire shapes. */
export type { Funnel, FunnelStep }

/** A row as selected (funnel_id may be a string on PostgreSQL for bigint, a number otherwise). */
export type FunnelRow = Omit<FunnelTable, 'funnel_id'> & { funnel_id: number | string }

/** Map a metadata row to the Funnel resource. */
export function toFunnel(row: FunnelRow): Funnel {
  return {
    funnelId: Number(row.funnel_id),
    name: row.name,
    steps: JSON.parse(row.steps) as FunnelStep[],
    createdAt: toIso(row.created_at),
  }
}

/** The step's condition as a goal definition (for `query/goal-condition.ts`). */
export function stepCondition(step: FunnelStep): GoalDefinition {
  if (step.type === 'path') {
    const { pathPattern, scrollDepth } = step
    return {
      goalType: 'path',
      config: { pathPattern, ...(scrollDepth === undefined ? {} : { scrollDepth }) },
    }
  }
  const { eventName, eventPropertyKey, eventPropertyValue } = step
  return {
    goalType: 'event',
    config: {
      eventName,
      ...(eventPropertyKey === undefined ? {} : { eventPropertyKey }),
      ...(eventPropertyValue === undefined ? {} : { eventPropertyValue }),
    },
  }
}

/**
 * The step's name, or when it has none a label of its condition: the path pattern ('scrolled 75 % of
 * /pricing' with a scroll depth), or the event name with `key=value` ('signup', 'purchase plan=pro').
 */
export function stepLabel(step: FunnelStep): string {
  if (step.name !== undefined) return step.name
  if (step.type === 'path')
    return step.scrollDepth === undefined
      ? step.pathPattern
      : `scrolled ${step.scrollDepth} % of ${step.pathPattern}`
  return step.eventPropertyKey === undefined
    ? step.eventName
    : `${step.eventName} ${step.eventPropertyKey}=${String(step.eventPropertyValue)}`
}
