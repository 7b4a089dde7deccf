/**
 * `GET /api/sites/{id}/has-events` started early: the site scope asks for it while the site itself
 * loads (instead of after), and the site's home page takes that answer once. An answer older than a
 * few seconds, or taken already, is not reused: the page then asks again (`prefetch-once.ts`).
 */
import type { SiteEventStatus } from '@pathlight/protocol'
import { api } from '../api/api'
import { createPrefetchOnce } from './prefetch-once'

const prefetch = createPrefetchOnce<SiteEventStatus>()

/** Start loading the event status of `siteId` unless a recent load is pending. */
export function prefetchSiteStatus(siteId: number | string): void {
  prefetch.start(String(siteId), () => api.siteStatus(Number(siteId)))
}

/** The prefetched status of `siteId` (once), or a fresh request. */
export const takeSiteStatus = (siteId: number): Promise<SiteEventStatus> =>
  prefetch.take(String(siteId)) ?? api.siteStatus(siteId)
