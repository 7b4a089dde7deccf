/**
 * A session's recording for the player, and its deletion. Reading inflates each stored batch as it
 * was sent (gzip or JSON) and concatenates the batches' events in sequence order. Deleting is audited
 * (`replay.deleted`) after the rows are gone.
 */
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import type { ReplayEvent, SessionReplay as WireSessionReplay } from '@pathlight/protocol'
import { recordAudit } from '../audit/audit-log.js'
import {
  deleteSessionReplayRows,
  replayBatchesOfSession,
  replayBytesOfSession,
  type StoredReplayBatch,
} from '../query/replay.js'
import { notFound } from '../shared/errors.js'
import type { Clock } from '../shared/time.js'
import type { SiteRow } from '../sites/site.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { MAX_REPLAY_BATCH_JSON_BYTES } from './decode-replay-body.js'
import { MAX_SESSION_REPLAY_BYTES } from './replay-ingest.js'

const gunzip = promisify(zlib.gunzip)

/**
 * What `GET /api/sites/{siteId}/sessions/{sessionId}/replay` answers in `data` (the protocol's): the
 * events, and `meta.truncated` when the session reached its cap or a part is missing: a batch number
 * skipped (the first one not 0) where the next batch does not open a page's recording.
 */
export type SessionReplay = WireSessionReplay

export const replayNotFound = () => notFound('Replay not found')

/** Session ids are UUIDs; anything far longer names no recording. */
const MAX_SESSION_ID_LENGTH = 128

/** @throws AppError 404 when the session has no recording */
export async function readSessionReplay(
  events: EventsStore,
  site: SiteRow,
  sessionId: string,
): Promise<SessionReplay> {
  if (sessionId.length > MAX_SESSION_ID_LENGTH) throw replayNotFound()
  const batches = await replayBatchesOfSession(events, site.site_id, sessionId)
  if (batches.length === 0) throw replayNotFound()
  const all: ReplayEvent[] = []
  let first = Number.POSITIVE_INFINITY
  let last = Number.NEGATIVE_INFINITY
  let missing = false
  for (const [i, batch] of batches.entries()) {
    const events = await eventsOf(batch)
    const expected = i === 0 ? 0 : (batches[i - 1]?.sequence ?? 0) + 1
    if (batch.sequence !== expected && !startsPage(events)) missing = true
    for (const event of events) {
      all.push(event)
      first = Math.min(first, event.timestamp)
      last = Math.max(last, event.timestamp)
    }
  }
  const bytes = batches.reduce((sum, batch) => sum + batch.bytes, 0)
  return {
    events: all,
    meta: {
      durationMs: all.length ? last - first : 0,
      bytes,
      truncated: bytes >= MAX_SESSION_REPLAY_BYTES || missing,
    },
  }
}

/** rrweb's event types that open a page's recording: Meta (4) and FullSnapshot (2). */
const PAGE_START_TYPES: ReadonlySet<unknown> = new Set([4, 2])

/**
 * Whether a batch opens a page's recording (its first event a Meta or FullSnapshot): the player needs
 * nothing before it. A recording's numbers may jump there without a part missing: the recorder numbers
 * from the time when it has no storage, and a page that continues an earlier page's numbers may land
 * in a new server session (the server restarted, a day's salt changed).
 */
function startsPage(events: readonly ReplayEvent[]): boolean {
  return PAGE_START_TYPES.has((events[0] as { type?: unknown } | undefined)?.type)
}

/** The events of one stored batch (validated when it was received). */
async function eventsOf(batch: StoredReplayBatch): Promise<ReplayEvent[]> {
  const raw = Buffer.from(batch.payload, 'base64')
  const text =
    batch.encoding === 'gzip' ? await gunzip(raw, { maxOutputLength: MAX_REPLAY_BATCH_JSON_BYTES }) : raw
  const body = JSON.parse(text.toString('utf8')) as { events?: ReplayEvent[] }
  return Array.isArray(body.events) ? body.events : []
}

/**
 * Delete a session's recording on behalf of `actorUserId`, and audit it.
 * @throws AppError 404 when the session has no recording
 */
export async function deleteSessionReplay(
  deps: { db: MetadataDb; events: EventsStore; clock?: Clock },
  site: SiteRow,
  actorUserId: string,
  sessionId: string,
): Promise<void> {
  if (sessionId.length > MAX_SESSION_ID_LENGTH) throw replayNotFound()
  const bytes = await replayBytesOfSession(deps.events, site.site_id, sessionId)
  if (bytes === 0) throw replayNotFound()
  await deleteSessionReplayRows(deps.events, site.site_id, sessionId)
  await recordAudit(
    deps.db,
    {
      organizationId: site.organization_id,
      siteId: site.site_id,
      actorUserId,
      action: 'replay.deleted',
      details: { sessionId, bytes },
    },
    deps.clock,
  )
}
