/**
 * Operator routes (instance owner only): `GET /api/admin/ingest-stats` gives events accepted and
 * requests dropped by reason since this process started, plus the write buffer's figures, the
 * authentication throttle's counts (failed sign-ins, sign-ups and password changes; throttled attempts),
 * RSS, and the fold pass's backlog (`storage/events/rollup-backlog.ts`, from the events store);
 * `GET /api/admin/events-count?site_id=N` counts the rows the events store holds for a site (read from
 * the store itself, so it checks the acknowledgement counters independently);
 * `PUT /api/admin/sites/{siteId}/limits {monthlyPageviewLimit}` sets a site's monthly pageview limit
 * (`sites/monthly-pageview-limit.ts`: validated, audited, effective on the next tracking request).
 */
import { eventsCountEndpoint, ingestStatsEndpoint, setSiteLimitsEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import type { AuthThrottle } from '../auth/auth-throttle.js'
import { INSTANCE_OWNER_SETTING } from '../auth/better-auth.js'
import type { Ingest } from '../ingest/ingest.js'
import type { WriteBuffer } from '../ingest/write-buffer.js'
import { countSiteEvents } from '../query/site-events.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { forbidden, siteNotFound } from '../shared/errors.js'
import { setMonthlyPageviewLimit } from '../sites/monthly-pageview-limit.js'
import { findSite, parseSiteId } from '../sites/sites.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { rollupBacklog } from '../storage/events/rollup-backlog.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { getSetting } from '../storage/metadata/instance-settings.js'
import type { Caller } from './caller.js'
import { route } from './route.js'

/** The three routes above, registered from their contracts (`contracts/admin.ts`). */
export async function adminRoutes(
  app: FastifyInstance,
  {
    db,
    ingest,
    buffer,
    events,
    changes,
    authThrottle,
  }: {
    db: MetadataDb
    ingest: Ingest
    buffer: WriteBuffer
    events: EventsStore
    changes: ChangeFeed
    authThrottle: AuthThrottle
  },
) {
  /** @throws AppError 403 unless the caller is the instance owner */
  const requireOwner = async ({ caller }: { caller: Caller }) => {
    if ((await getSetting(db, INSTANCE_OWNER_SETTING)) !== caller.userId) {
      throw forbidden('Only the instance owner can use the admin routes')
    }
  }

  route(app, ingestStatsEndpoint, async (input) => {
    await requireOwner(input)
    return {
      ...ingest.stats.snapshot(),
      writeBuffer: buffer.stats(),
      auth: authThrottle.stats(),
      rssBytes: process.memoryUsage.rss(),
      rollups: await rollupBacklog(events),
    }
  })

  route(app, setSiteLimitsEndpoint, {
    resolve: async (input) => {
      await requireOwner(input)
      const siteId = parseSiteId(input.params.siteId)
      const site = siteId === null ? undefined : await findSite(db, siteId)
      if (!site) throw siteNotFound()
      return site
    },
    handle: async ({ body, caller, resolved: site }) => ({
      success: true as const,
      data: await setMonthlyPageviewLimit({ db, changes }, site, caller.userId, body),
    }),
  })

  route(app, eventsCountEndpoint, {
    resolve: requireOwner,
    handle: async ({ query }) => ({
      siteId: query.site_id,
      count: await countSiteEvents(events, query.site_id),
    }),
  })
}
