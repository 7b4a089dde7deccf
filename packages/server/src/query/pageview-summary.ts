/**
 * A site's pageview totals and its top values of one column by pageviews, over all its events: the
 * summary `npm run demo` prints after importing a log.
 */
import type { EventsStore } from '../storage/events/events-store.js'
import { eventMetrics, eventTypeConditions } from './metrics.js'

export interface PageviewTotals {
  pageviews: number
  /** Distinct sessions and visitors with a pageview. */
  sessions: number
  visitors: number
}

/** Pageviews, and the sessions and visitors they belong to, of every event of a site. */
export async function pageviewTotals(events: EventsStore, siteId: number): Promise<PageviewTotals> {
  const [row] = await events.query<Record<keyof PageviewTotals, number | string>>(
    `SELECT count() AS pageviews, ${eventMetrics.sessions.sql} AS sessions, ${eventMetrics.visitors.sql} AS visitors
     FROM events WHERE site_id = {site:UInt32} AND ${eventTypeConditions.pageview}`,
    { site: siteId },
  )
  return {
    pageviews: Number(row?.pageviews ?? 0),
    sessions: Number(row?.sessions ?? 0),
    visitors: Number(row?.visitors ?? 0),
  }
}

/** The `top` values of a column with the most pageviews, most first, ties by value. */
export async function topByPageviews(
  events: EventsStore,
  siteId: number,
  column: 'pathname' | 'country' | 'browser',
  top: number,
): Promise<{ name: string; pageviews: number }[]> {
  const rows = await events.query<{ name: string; pageviews: number | string }>(
    `SELECT ${column} AS name, count() AS pageviews FROM events
     WHERE site_id = {site:UInt32} AND ${eventTypeConditions.pageview}
     GROUP BY name ORDER BY pageviews DESC, name LIMIT {top:UInt32}`,
    { site: siteId, top },
  )
  return rows.map((r) => ({ name: r.name, pageviews: Number(r.pageviews) }))
}
