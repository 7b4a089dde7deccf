/** Pageviews of a site in one UTC calendar month: what the monthly pageview limit counts. */
import type { EventsStore } from '../storage/events/events-store.js'
import { eventTypeConditions } from './metrics.js'

/** 'YYYY-MM' of the UTC month containing `now` (epoch ms). */
export const monthOf = (now: number): string => new Date(now).toISOString().slice(0, 7)

/** Pageviews of a site in the UTC month containing `now` (epoch ms), read from the events store. */
export async function countMonthPageviews(events: EventsStore, siteId: number, now: number): Promise<number> {
  const rows = await events.query<{ c: number | string }>(
    `SELECT count() AS c FROM events
     WHERE site_id = {site:UInt32} AND ${eventTypeConditions.pageview} AND toStartOfMonth(timestamp) = {month:Date}`,
    { site: siteId, month: `${monthOf(now)}-01` },
  )
  return Number(rows[0]?.c ?? 0)
}
