/**
 * Operator routes (instance owner only): `GET /api/admin/ingest-stats` gives events accepted and
 * requests dropped by reason since this process started, plus the write buffer's figures and RSS;
 * `GET /api/admin/events-count?site_id=N` counts the rows the events store holds for a site (read from
 * the store itself, so it checks the acknowledgement counters independently).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { INSTANCE_OWNER_SETTING } from '../auth/better-auth.js'
import type { Ingest } from '../ingest/ingest.js'
import type { WriteBuffer } from '../ingest/write-buffer.js'
import { badRequest, forbidden } from '../shared/errors.js'
import { parseSiteId } from '../sites/sites.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { getSetting } from '../storage/metadata/instance-settings.js'
import { callerOf } from './caller-of.js'

export async function adminRoutes(
  app: FastifyInstance,
  {
    db,
    ingest,
    buffer,
    events,
  }: { db: MetadataDb; ingest: Ingest; buffer: WriteBuffer; events: EventsStore },
) {
  const requireOwner = async (request: FastifyRequest) => {
    if ((await getSetting(db, INSTANCE_OWNER_SETTING)) !== callerOf(request).userId) {
      throw forbidden('Only the instance owner can use the admin routes')
    }
  }

  app.get('/api/admin/ingest-stats', async (request) => {
    await requireOwner(request)
    return { ...ingest.stats.snapshot(), writeBuffer: buffer.stats(), rssBytes: process.memoryUsage.rss() }
  })

  app.get<{ Querystring: { site_id?: string } }>('/api/admin/events-count', async (request) => {
    await requireOwner(request)
    const siteId = parseSiteId(request.query.site_id)
    if (siteId === null) throw badRequest('site_id must be a positive integer')
    const [row] = await events.query<{ count: number }>(
      'SELECT count() AS count FROM events WHERE site_id = {site:UInt32}',
      { site: siteId },
    )
    return { siteId, count: Number(row?.count ?? 0) }
  })
}
