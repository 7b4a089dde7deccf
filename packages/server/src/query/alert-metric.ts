/**
 * The value of an alert metric for one site over the window (from, to]: one query on the events store,
 * parameters bound, with the metrics of `metrics.ts`. What each metric means is in
 * `alerts/alert-rules.ts`.
 */
import type { AlertCrawlerCategory, CrawlerAlertMetric } from '@pathlight/protocol'
import type { AlertMetric } from '../alerts/alert-rules.js'
import type { GoalDefinition } from '../goals/goal.js'
import { toClickHouseTime } from '../storage/events/clickhouse-time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { crawlerRequestCount } from './crawler-alert-metric.js'
import { goalCondition } from './goal-condition.js'
import { eventMetrics, eventTypeConditions, SESSION_KEY } from './metrics.js'

const expressions: Record<Exclude<AlertMetric, 'goal_conversions' | CrawlerAlertMetric>, string> = {
  pageviews: eventMetrics.pageviews.sql,
  sessions: eventMetrics.sessions.sql,
  visitors: eventMetrics.visitors.sql,
  custom_events: `countIf(${eventTypeConditions.custom_event} AND ({event:String} = '' OR event_name = {event:String}))`,
  errors: `countIf(${eventTypeConditions.error})`,
}

/**
 * @param from window start, epoch ms (exclusive)
 * @param to window end, epoch ms (inclusive)
 * @param goal the rule's goal, for `goal_conversions` (sessions with a goal-matching event in the
 *   window); a deleted goal counts 0
 * For `crawler_requests` see `crawler-alert-metric.ts`; `crawler_new_agents` is no count over a window
 * (`crawlerAgentsSeen`), so it is refused here.
 * @throws for `crawler_new_agents`
 */
export async function alertMetricValue(
  events: EventsStore,
  rule: {
    siteId: number
    metric: AlertMetric
    eventName: string | null
    crawlerCategory?: AlertCrawlerCategory | null
    crawlerAgent?: string | null
  },
  from: number,
  to: number,
  goal?: GoalDefinition | null,
): Promise<number> {
  if (rule.metric === 'crawler_requests') {
    const filter = {
      siteId: rule.siteId,
      crawlerCategory: rule.crawlerCategory ?? null,
      crawlerAgent: rule.crawlerAgent,
    }
    return crawlerRequestCount(events, filter, from, to)
  }
  if (rule.metric === 'crawler_new_agents') throw new Error('crawler_new_agents is not a count over a window')
  const params: Record<string, unknown> = {
    site: rule.siteId,
    from: toClickHouseTime(from),
    to: toClickHouseTime(to),
    event: rule.eventName ?? '',
  }
  let expression: string
  if (rule.metric === 'goal_conversions') {
    if (!goal) return 0
    const condition = goalCondition(goal, 'g')
    Object.assign(params, condition.params)
    expression = `uniqExactIf(${SESSION_KEY}, ${condition.sql})`
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
