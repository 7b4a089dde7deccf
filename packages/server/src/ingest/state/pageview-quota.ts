/**
 * Monthly pageview limits (per site, none by default; a site over its limit cannot track). Only sites
 * with a limit are counted. The count of the current UTC month is read once from the events store,
 * then kept up to date as pageviews commit. With Redis (`redis-pageview-quota.ts`) the count is shared
 * by every API node.
 */
import { countMonthPageviews, monthOf } from '../../query/month-pageviews.js'
import type { EventsStore } from '../../storage/events/events-store.js'

export interface PageviewQuota {
  /** True when the site already has `limit` or more pageviews this UTC month. */
  isOver(siteId: number, limit: number, now: number): Promise<boolean>
  /** Count committed pageviews (call after the commit). */
  add(siteId: number, count: number, now: number): Promise<void>
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
