/**
 * The value of an alert metric for one site over (from, to]: one query on the events store,
 * parameters bound. Definitions are in alert-rules.ts.
 */

import type { GoalDefinition } from '../goals/goal.js'
import { goalCondition } from '../query/goal-condition.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { toClickHouseTime } from '../storage/events/to-insert-json.js'
import type { AlertMetric } from './alert-rules.js'

const expressions: Record<Exclude<AlertMetric, 'goal_conversions'>, string> = {
  pageviews: "countIf(type = 'pageview')",
  sessions: 'uniqExact(session_id)',
  visitors: 'uniqExact(user_id)',
  custom_events: "countIf(type = 'custom_event' AND ({event:String} = '' OR event_name = {event:String}))",
  errors: "countIf(type = 'error')",
}

/**
 * @param goal the rule's goal, for `goal_conversions` (sessions with a goal-matching event in the
 *   window); a deleted goal counts 0
 */
export async function alertMetricValue(
  events: EventsStore,
  rule: { siteId: number; metric: AlertMetric; eventName: string | null },
  from: number,
  to: number,
  goal?: GoalDefinition | null,
): Promise<number> {
  const params: Record<string, unknown> = {
    site: rule.siteId,
    from: toClickHouseTime(new Date(from).toISOString()),
    to: toClickHouseTime(new Date(to).toISOString()),
    event: rule.eventName ?? '',
  }
  let expression: string
  if (rule.metric === 'goal_conversions') {
    if (!goal) return 0
    const condition = goalCondition(goal, 'g')
    Object.assign(params, condition.params)
    expression = `uniqExactIf(session_id, ${condition.sql})`
  } else {
    expression = expressions[rule.metric]
  }
  const [row] = await events.query<{ value: number }>(
    `SELECT ${expression} AS value FROM events
     WHERE site_id = {site:UInt32}
       AND timestamp > {from:DateTime64(3, 'UTC')} AND timestamp <= {to:DateTime64(3, 'UTC')}`,
    params,
  )
  return Number(row?.value ?? 0)
}
