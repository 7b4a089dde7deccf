/**
 * Live visitors: distinct visitors (`eventMetrics.visitors`) with at least one event of any type in
 * the last five minutes by the server's clock, `now - 5 min < timestamp <= now`. No filters and no
 * date range: it answers "who is on the site right now". The answer is the protocol's `LiveVisitors`:
 * the count and the window, `from` (excluded) and `to` (included) ISO 8601 UTC with ms.
 */
import type { LiveVisitors } from '@pathlight/protocol'
import { toClickHouseTime } from '../storage/events/clickhouse-time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { eventMetrics } from './metrics.js'
import { runReport } from './run-report.js'

/** The window, milliseconds. */
export const LIVE_WINDOW_MS = 5 * 60_000

/** @param nowMs the server's current time, epoch ms */
export function compileLiveVisitors(siteId: number, nowMs: number): CompiledQuery {
  return {
    sql: [
      `SELECT ${eventMetrics.visitors.sql} AS visitors`,
      'FROM events',
      "WHERE site_id = {site:UInt32} AND timestamp > {from:DateTime64(3, 'UTC')}",
      "  AND timestamp <= {to:DateTime64(3, 'UTC')}",
    ].join('\n'),
    params: {
      site: siteId,
      from: toClickHouseTime(nowMs - LIVE_WINDOW_MS),
      to: toClickHouseTime(nowMs),
    },
  }
}

/** The live visitors of one site at `nowMs`. */
export async function queryLiveVisitors(
  events: EventsStore,
  siteId: number,
  nowMs: number,
): Promise<LiveVisitors> {
  const [row] = await runReport<{ visitors: number }>(
    events,
    compileLiveVisitors(siteId, nowMs),
    'live-visitors',
  )
  return {
    visitors: Number(row?.visitors ?? 0),
    from: new Date(nowMs - LIVE_WINDOW_MS).toISOString(),
    to: new Date(nowMs).toISOString(),
  }
}
