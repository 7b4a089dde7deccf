/**
 * Route: `GET /api/sites/{siteId}/has-events`, whether a site has received any event yet, for the
 * dashboard's "waiting for the first event" check (authenticated scope, any member of the site's
 * organization), registered from its contract (`contracts/sites.ts`). Reads the events store itself,
 * so an event shows once it is stored (within about a second of its acknowledgement:
 * `INGEST_FLUSH_MS`). `drops` counts the site's tracking requests this process did not record
 * (`ingest-stats.ts`), so the page can say why nothing arrives (a headless browser with bot blocking
 * on, a domain that does not match).
 */
import { siteHasEventsEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForMember } from '../auth/site-access.js'
import type { IngestStatsCounter } from '../ingest/ingest-stats.js'
import { lastSiteEventAt } from '../query/site-events.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { route } from './route.js'

/** Register `GET /api/sites/:siteId/has-events` (authenticated scope; 404 for non-members). */
export async function siteStatusRoutes(
  app: FastifyInstance,
  { db, events, stats }: { db: MetadataDb; events: EventsStore; stats: IngestStatsCounter },
) {
  route(app, siteHasEventsEndpoint, async ({ params, caller }) => {
    const { site } = await siteForMember(db, caller.userId, params.siteId)
    const lastEventAt = await lastSiteEventAt(events, site.site_id)
    const drops = stats.siteDrops(site.site_id)
    return {
      success: true as const,
      data: {
        hasEvents: lastEventAt !== null,
        lastEventAt,
        drops: drops && { ...drops, lastAt: new Date(drops.lastAt).toISOString() },
      },
    }
  })
}
