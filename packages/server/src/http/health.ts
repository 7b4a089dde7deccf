/**
 * Route: `GET /api/health`. 200 `{status:'ok', metadata, events, ingest, reasons: []}` when both stores
 * answer a trivial query within 2 s and ingest keeps up. 503 otherwise, naming each cause in `reasons`:
 * `{status:'unavailable'}` when a store does not answer or the process shuts down; `{status:'degraded'}`
 * when the stores answer but ingest is stalled: the oldest accepted event not yet in the events store
 * has waited longer than `maxPendingAgeMs` (default 60 s), or the events store refuses writes (its last
 * insert failed and none has succeeded since: disk full, store down). Accepted events then wait in the
 * journal; a load balancer should send the traffic elsewhere. Also `degraded` when the ingest journal
 * cannot take an append (its disk is full, read-only, failing): checked on every call by writing and
 * removing one tracking body's worth beside the segments, so health turns back to `ok` as soon as
 * there is room again, with or without traffic. Tracking answers 503 meanwhile.
 */
import { type Health, healthEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import type { WriteBuffer } from '../ingest/write-buffer.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataStore } from '../storage/metadata/db.js'
import { route } from './route.js'

export interface HealthOptions {
  metadata: MetadataStore
  events: EventsStore
  /** The ingest write buffer: its backlog's age and whether inserts fail. */
  buffer: Pick<WriteBuffer, 'stats' | 'oldestPendingAgeMs' | 'lastInsertFailed' | 'localStorageProblem'>
  /** Beyond this age of the oldest pending event (ms), ingest counts as stalled. Default 60,000. */
  maxPendingAgeMs?: number
  isShuttingDown: () => boolean
}

/**
 * What stalls ingest, as the `reasons` of the health answer: empty when it keeps up.
 * @returns e.g. `['ingest: oldest pending event is 75 s old (limit 60 s)', 'events store: ...']`
 */
export function ingestStallReasons(buffer: HealthOptions['buffer'], maxPendingAgeMs: number): string[] {
  const reasons: string[] = []
  const ageMs = buffer.oldestPendingAgeMs()
  if (ageMs > maxPendingAgeMs) {
    reasons.push(
      `ingest: oldest pending event is ${Math.floor(ageMs / 1000)} s old (limit ${seconds(maxPendingAgeMs)} s)`,
    )
  }
  if (buffer.lastInsertFailed()) {
    reasons.push(
      'events store: refuses writes (the last insert failed and none has succeeded since); accepted events wait in the journal',
    )
  }
  return reasons
}

const seconds = (ms: number) => Math.round(ms / 100) / 10

export async function healthRoutes(
  app: FastifyInstance,
  { metadata, events, buffer, maxPendingAgeMs = 60_000, isShuttingDown }: HealthOptions,
) {
  route(app, healthEndpoint, async ({ reply }) => {
    const [metadataOk, eventsOk, journalProblem] = await Promise.all([
      probe(() => sql`select 1`.execute(metadata.db)),
      probe(() => events.query('SELECT 1')),
      journalProblemOf(buffer),
    ])
    const reasons: string[] = []
    if (isShuttingDown()) reasons.push('shutting down')
    if (!metadataOk) reasons.push('metadata store: does not answer within 2 s')
    if (!eventsOk) reasons.push('events store: does not answer within 2 s')
    const unavailable = reasons.length > 0
    reasons.push(...ingestStallReasons(buffer, maxPendingAgeMs))
    if (journalProblem !== null) reasons.push(journalProblem)
    const status = unavailable ? 'unavailable' : reasons.length > 0 ? 'degraded' : 'ok'
    const answer: Health = {
      status,
      metadata: { kind: metadata.dialect, ok: metadataOk },
      events: { kind: events.kind, ok: eventsOk },
      ingest: {
        pendingEvents: buffer.stats().pendingRows,
        oldestPendingAgeSeconds: Math.floor(buffer.oldestPendingAgeMs() / 1000),
        lastInsertFailed: buffer.lastInsertFailed(),
      },
      reasons,
    }
    return reply.code(status === 'ok' ? 200 : 503).send(answer)
  })
}

/**
 * The reason the ingest journal refuses appends, for `reasons`, or null when it takes them (or there is
 * no journal). A check that has not answered within 2 s counts as a refusal.
 * @returns e.g. `'ingest journal: cannot append (ENOSPC: no space left on device, write); tracking answers 503'`
 */
export async function journalProblemOf(buffer: HealthOptions['buffer']): Promise<string | null> {
  const check = buffer.localStorageProblem
  if (!check) return null
  let problem: string | null = 'does not answer within 2 s'
  await probe(async () => {
    problem = await check.call(buffer)
  })
  return problem === null ? null : `ingest journal: cannot append (${problem}); tracking answers 503`
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
