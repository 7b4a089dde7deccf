/**
 * Monthly pageview limits (spec part 8). Only sites with a limit are counted. The count of the current
 * UTC month is read once from the events store, then kept up to date as pageviews commit. With Redis
 * (`redis-pageview-quota.ts`) the count is shared by every API node.
 */
import type { EventsStore } from '../../storage/events/events-store.js'

export interface PageviewQuota {
  /** True when the site already has `limit` or more pageviews this UTC month. */
  isOver(siteId: number, limit: number, now: number): Promise<boolean>
  /** Count committed pageviews (call after the commit). */
  add(siteId: number, count: number, now: number): Promise<void>
}

/** 'YYYY-MM' of the UTC month containing `now`. */
export const monthOf = (now: number): string => new Date(now).toISOString().slice(0, 7)

/** Pageviews of a site in the UTC month containing `now`, read from the events store. */
export async function countMonthPageviews(events: EventsStore, siteId: number, now: number): Promise<number> {
  const rows = await events.query<{ c: number | string }>(
    `SELECT count() AS c FROM events
     WHERE site_id = {site:UInt32} AND type = 'pageview' AND toStartOfMonth(timestamp) = {month:Date}`,
    { site: siteId, month: `${monthOf(now)}-01` },
  )
  return Number(rows[0]?.c ?? 0)
}

export function createMemoryPageviewQuota(events: EventsStore): PageviewQuota {
  const counts = new Map<string, number>()
  const loading = new Map<string, Promise<number>>()
  const current = async (siteId: number, now: number) => {
    const key = `${siteId}:${monthOf(now)}`
    const known = counts.get(key)
    if (known !== undefined) return known
    let pending = loading.get(key)
    if (!pending) {
      pending = countMonthPageviews(events, siteId, now)
      loading.set(key, pending)
    }
    const count = await pending
    loading.delete(key)
    if (!counts.has(key)) counts.set(key, count)
    return counts.get(key) ?? count
  }
  return {
    async isOver(siteId, limit, now) {
      return (await current(siteId, now)) >= limit
    },
    async add(siteId, count, now) {
      const key = `${siteId}:${monthOf(now)}`
      const known = counts.get(key)
      if (known !== undefined) counts.set(key, known + count)
    },
  }
}
