/**
 * Route: `GET /api/sites/{siteId}/has-events`, whether a site has received any event yet, for the
 * dashboard's "waiting for the first event" check (authenticated scope, any member of the site's
 * organization). Answers `{success:true, data:{hasEvents, lastEventAt}}`, `lastEventAt` ISO 8601 UTC
 * with milliseconds or null. Reads the events store itself, so an event shows once it is stored
 * (about 250 ms after its acknowledgement).
 */
import type { FastifyInstance } from 'fastify'
import { siteForMember } from '../auth/site-access.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { callerOf } from './caller-of.js'

/** What the route answers in `data`. */
export interface SiteEventStatus {
  hasEvents: boolean
  lastEventAt: string | null
}

/**
 * The time of a site's newest event. The sort follows the table's key (site_id, toDate(timestamp),
 * timestamp), so ClickHouse reads the site's rows in reverse order and stops at the first one.
 */
export async function siteEventStatus(events: EventsStore, siteId: number): Promise<SiteEventStatus> {
  const [row] = await events.query<{ timestamp: string }>(
    `SELECT timestamp FROM events WHERE site_id = {site:UInt32}
     ORDER BY toDate(timestamp) DESC, timestamp DESC LIMIT 1`,
    { site: siteId },
  )
  // DateTime64(3, 'UTC') comes back as '2026-11-22 10:00:00.123'.
  return row
    ? { hasEvents: true, lastEventAt: `${row.timestamp.replace(' ', 'T')}Z` }
    : { hasEvents: false, lastEventAt: null }
}

/** Register `GET /api/sites/:siteId/has-events` (authenticated scope; 404 for non-members). */
export async function siteStatusRoutes(
  app: FastifyInstance,
  { db, events }: { db: MetadataDb; events: EventsStore },
) {
  app.get<{ Params: { siteId: string } }>('/api/sites/:siteId/has-events', async (request) => {
    const { site } = await siteForMember(db, callerOf(request).userId, request.params.siteId)
    return { success: true, data: await siteEventStatus(events, site.site_id) }
  })
}
