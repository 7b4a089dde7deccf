/**
 * `GET /api/sites/{id}/has-events` started early: the site scope asks for it while the site itself
 * loads (instead of after), and the site's home page takes that answer once. An answer older than a
 * few seconds, or taken already, is not reused: the page then asks again.
 */
import type { SiteEventStatus } from '@pathlight/protocol'
import { api } from '../api/api'

const MAX_AGE_MS = 5000
const pending = new Map<string, { at: number; answer: Promise<SiteEventStatus> }>()

/** Start loading the event status of `siteId` unless a recent load is pending. */
export function prefetchSiteStatus(siteId: number | string): void {
  const key = String(siteId)
  const current = pending.get(key)
  if (current && Date.now() - current.at < MAX_AGE_MS) return
  const answer = api.siteStatus(Number(siteId))
  // Nobody may take it: a failure must not be reported as unhandled.
  answer.catch(() => undefined)
  pending.set(key, { at: Date.now(), answer })
}

/** The prefetched status of `siteId` (once), or a fresh request. */
export function takeSiteStatus(siteId: number): Promise<SiteEventStatus> {
  const key = String(siteId)
  const current = pending.get(key)
  pending.delete(key)
  if (current && Date.now() - current.at < MAX_AGE_MS) return current.answer
  return api.siteStatus(siteId)
}
