/**
 * Operator routes (instance owner only): `GET /api/admin/ingest-stats` gives events accepted and
 * requests dropped by reason since this process started, plus the write buffer's figures.
 */
import type { FastifyInstance } from 'fastify'
import { INSTANCE_OWNER_SETTING } from '../auth/better-auth.js'
import type { Ingest } from '../ingest/ingest.js'
import type { WriteBuffer } from '../ingest/write-buffer.js'
import { forbidden } from '../shared/errors.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { getSetting } from '../storage/metadata/instance-settings.js'
import { callerOf } from './caller-of.js'

export async function adminRoutes(
  app: FastifyInstance,
  { db, ingest, buffer }: { db: MetadataDb; ingest: Ingest; buffer: WriteBuffer },
) {
  app.get('/api/admin/ingest-stats', async (request) => {
    if ((await getSetting(db, INSTANCE_OWNER_SETTING)) !== callerOf(request).userId) {
      throw forbidden('Only the instance owner can read ingest statistics')
    }
    return { ...ingest.stats.snapshot(), writeBuffer: buffer.stats(), rssBytes: process.memoryUsage.rss() }
  })
}
