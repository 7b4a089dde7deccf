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
import { doc, ingestStats, siteLimits, successData } from '@pathlight/protocol'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { AuthThrottle } from '../auth/auth-throttle.js'
import { INSTANCE_OWNER_SETTING } from '../auth/better-auth.js'
import type { Ingest } from '../ingest/ingest.js'
import type { WriteBuffer } from '../ingest/write-buffer.js'
import { countSiteEvents } from '../query/site-events.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { badRequest, forbidden } from '../shared/errors.js'
import { setMonthlyPageviewLimit } from '../sites/monthly-pageview-limit.js'
import { parseSiteId } from '../sites/sites.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { rollupBacklog } from '../storage/events/rollup-backlog.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { getSetting } from '../storage/metadata/instance-settings.js'
import { callerOf } from './caller-of.js'
import { json } from './openapi/route-doc.js'

/** `GET /api/admin/events-count`. */
export const eventsCountQuery = z.object({ site_id: doc(z.int().min(1), 'The numeric site id') })

/** `PUT /api/admin/sites/{siteId}/limits`. */
export const limitsBody = z.object({
  monthlyPageviewLimit: doc(
    z.int().min(1).max(2_147_483_647),
    'Pageviews per month; null for unlimited',
  ).nullable(),
})

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
  const requireOwner = async (request: FastifyRequest) => {
    if ((await getSetting(db, INSTANCE_OWNER_SETTING)) !== callerOf(request).userId) {
      throw forbidden('Only the instance owner can use the admin routes')
    }
  }

  app.get(
    '/api/admin/ingest-stats',
    {
      config: {
        doc: {
          summary: 'Ingest counters since this process started',
          tag: 'Admin',
          access: 'instanceOwner',
          responses: { 200: json('The counters', ingestStats) },
        },
      },
    },
    async (request) => {
      await requireOwner(request)
      return {
        ...ingest.stats.snapshot(),
        writeBuffer: buffer.stats(),
        auth: authThrottle.stats(),
        rssBytes: process.memoryUsage.rss(),
        rollups: await rollupBacklog(events),
      }
    },
  )

  app.put<{ Params: { siteId: string } }>(
    '/api/admin/sites/:siteId/limits',
    {
      config: {
        doc: {
          summary: "Set a site's monthly pageview limit",
          description: 'Effective on the next tracking request; over the limit, tracking answers 403.',
          tag: 'Admin',
          access: 'instanceOwner',
          body: limitsBody,
          responses: { 200: json('The limit', successData(siteLimits)), 404: 'Site not found' },
        },
      },
    },
    async (request) => {
      await requireOwner(request)
      const { userId } = callerOf(request)
      const data = await setMonthlyPageviewLimit({ db, changes }, request.params.siteId, userId, request.body)
      return { success: true, data }
    },
  )

  app.get<{ Querystring: { site_id?: string } }>(
    '/api/admin/events-count',
    {
      config: {
        doc: {
          summary: 'Rows the events store holds for a site',
          tag: 'Admin',
          access: 'instanceOwner',
          query: eventsCountQuery,
          responses: {
            200: json('The count', z.object({ siteId: z.int().min(1), count: z.int().min(0) })),
          },
        },
      },
    },
    async (request) => {
      await requireOwner(request)
      const siteId = parseSiteId(request.query.site_id)
      if (siteId === null) throw badRequest('site_id must be a positive integer')
      return { siteId, count: await countSiteEvents(events, siteId) }
    },
  )
}
