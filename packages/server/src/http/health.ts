/**
 * Route: `GET /api/health`. 200 `{status:'ok', metadata, events}` when both stores answer a trivial
 * query within 2 s; 503 `{status:'unavailable', ...}` otherwise, and while the process shuts down.
 */
import { healthResponse } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataStore } from '../storage/metadata/db.js'
import { json } from './openapi/route-doc.js'

export interface HealthOptions {
  metadata: MetadataStore
  events: EventsStore
  isShuttingDown: () => boolean
}

export async function healthRoutes(
  app: FastifyInstance,
  { metadata, events, isShuttingDown }: HealthOptions,
) {
  app.get(
    '/api/health',
    {
      config: {
        doc: {
          summary: 'Health of the service and its stores',
          tag: 'Health',
          access: 'public',
          responses: {
            200: json('Both stores answer', healthResponse),
            503: json('A store does not answer within 2 s, or the process is shutting down', healthResponse),
          },
        },
      },
    },
    async (_request, reply) => {
      const [metadataOk, eventsOk] = await Promise.all([
        probe(() => sql`select 1`.execute(metadata.db)),
        probe(() => events.query('SELECT 1')),
      ])
      const ok = metadataOk && eventsOk && !isShuttingDown()
      return reply.code(ok ? 200 : 503).send({
        status: ok ? 'ok' : 'unavailable',
        metadata: { kind: metadata.dialect, ok: metadataOk },
        events: { kind: events.kind, ok: eventsOk },
      })
    },
  )
}

async function probe(check: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), 2000)
      }),
    ])
    return true
  } catch {
    return false
  } finally {
    clearTimeout(timer)
  }
}
