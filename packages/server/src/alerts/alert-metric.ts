/**
 * The value of an alert metric for one site over (from, to]: one query on the events store,
 * parameters bound. Definitions are in alert-rules.ts.
 */
import type { EventsStore } from '../storage/events/events-store.js'
import { toClickHouseTime } from '../storage/events/to-insert-json.js'
import type { AlertMetric } from './alert-rules.js'

const expressions: Record<AlertMetric, string> = {
  pageviews: "countIf(type = 'pageview')",
  sessions: 'uniqExact(session_id)',
  visitors: 'uniqExact(user_id)',
  custom_events: "countIf(type = 'custom_event' AND ({event:String} = '' OR event_name = {event:String}))",
  errors: "countIf(type = 'error')",
}

export async function alertMetricValue(
  events: EventsStore,
  rule: { siteId: number; metric: AlertMetric; eventName: string | null },
  from: number,
  to: number,
): Promise<number> {
  const [row] = await events.query<{ value: number }>(
    `SELECT ${expressions[rule.metric]} AS value FROM events
     WHERE site_id = {site:UInt32}
       AND timestamp > {from:DateTime64(3, 'UTC')} AND timestamp <= {to:DateTime64(3, 'UTC')}`,
    {
      site: rule.siteId,
      from: toClickHouseTime(new Date(from).toISOString()),
      to: toClickHouseTime(new Date(to).toISOString()),
      event: rule.eventName ?? '',
    },
  )
  return Number(row?.value ?? 0)
}
