/**
 * A session's recording for the player, and its deletion. Reading streams the answer: each stored
 * batch is inflated (gzip or JSON, as it was sent) under the per-batch limit and its events' bytes are
 * written out as stored (`batch-events.ts` finds them; nothing is parsed or serialized again), in
 * sequence order, one batch in memory at a time, so what a read holds is bounded by one batch and never
 * by the session. One read is capped too: at most `maxSessionBytes + maxBatchBytes` of events (what an
 * ingest within the limits can store) and `REPLAY_READ_MAX_MS`; past either, the events end there and
 * `meta.truncated` says so. Deleting is audited (`replay.deleted`) after the rows are gone.
 */
import { Readable } from 'node:stream'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import type { SessionReplay as WireSessionReplay } from '@pathlight/protocol'
import { recordAudit } from '../audit/audit-log.js'
import {
  deleteSessionReplayRows,
  replayBatchesOfSession,
  replayBytesOfSession,
  replayPayloads,
  type StoredReplayBatchInfo,
} from '../query/replay.js'
import { notFound } from '../shared/errors.js'
import type { Clock } from '../shared/time.js'
import type { SiteRow } from '../sites/site.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { type BatchEvents, batchEvents } from './batch-events.js'
import { DEFAULT_REPLAY_LIMITS, REPLAY_READ_MAX_MS, type ReplayLimits } from './replay-limits.js'

const gunzip = promisify(zlib.gunzip)

/**
 * What `GET /api/sites/{siteId}/sessions/{sessionId}/replay` answers in `data` (the protocol's): the
 * events, and `meta.truncated` when the session reached its cap, a part is missing (a batch number
 * skipped, the first one not 0, where the next batch does not open a page's recording), or the read
 * stopped at its budget.
 */
export type SessionReplay = WireSessionReplay

export const replayNotFound = () => notFound('Replay not found')

/** Session ids are UUIDs; anything far longer names no recording. */
const MAX_SESSION_ID_LENGTH = 128
/** Stored bytes of payload one store query fetches at most (a batch larger than this goes alone). */
const PAYLOAD_QUERY_BYTES = 4 * 1024 * 1024

export interface ReplayReadOptions {
  limits?: ReplayLimits
  /** Milliseconds now; default `Date.now`. */
  now?: () => number
  /** The read's time budget in ms; default `REPLAY_READ_MAX_MS`. */
  maxMs?: number
}

/**
 * The answer's JSON text, `{"data":{"events":[...],"meta":{durationMs, bytes, truncated}}}`, as a stream
 * read batch by batch (the events first, `meta` once they are all out).
 * @throws AppError 404 when the session has no recording (before anything is streamed)
 */
export async function streamSessionReplay(
  events: EventsStore,
  site: SiteRow,
  sessionId: string,
  options: ReplayReadOptions = {},
): Promise<Readable> {
  if (sessionId.length > MAX_SESSION_ID_LENGTH) throw replayNotFound()
  const batches = await replayBatchesOfSession(events, site.site_id, sessionId)
  if (batches.length === 0) throw replayNotFound()
  return Readable.from(replayText(events, site.site_id, sessionId, batches, options), { objectMode: false })
}

async function* replayText(
  events: EventsStore,
  siteId: number,
  sessionId: string,
  batches: readonly StoredReplayBatchInfo[],
  { limits = DEFAULT_REPLAY_LIMITS, now = Date.now, maxMs = REPLAY_READ_MAX_MS }: ReplayReadOptions,
): AsyncGenerator<string | Buffer> {
  const started = now()
  const budget = limits.maxSessionBytes + limits.maxBatchBytes
  const storedJson = batches.reduce((sum, batch) => sum + batch.jsonBytes, 0)
  let truncated = storedJson >= limits.maxSessionBytes
  let expected = 0
  let read = 0
  let count = 0
  let first = Number.POSITIVE_INFINITY
  let last = Number.NEGATIVE_INFINITY
  let chunk = '{"data":{"events":['
  reading: for (const group of payloadGroups(batches)) {
    const payloads = await replayPayloads(
      events,
      siteId,
      sessionId,
      group.map((batch) => batch.sequence),
    )
    for (const batch of group) {
      const payload = payloads.get(batch.sequence)
      if (payload === undefined) {
        truncated = true // deleted or expired since it was listed
        continue
      }
      const json = await inflate(payload, batch.encoding, limits.maxBatchBytes)
      if (json === undefined || read + json.length > budget || now() - started > maxMs) {
        truncated = true
        break reading
      }
      read += json.length
      const found = batchEvents(json)
      if (batch.sequence !== expected && !startsPage(found)) truncated = true
      expected = batch.sequence + 1
      if (!found || found.count === 0) continue
      // The elements' bytes as stored: never a string, never parsed again.
      yield `${chunk}${count === 0 ? '' : ','}`
      chunk = ''
      yield json.subarray(found.start, found.end)
      count += found.count
      first = Math.min(first, found.first)
      last = Math.max(last, found.last)
    }
  }
  const meta = {
    durationMs: count > 0 && last >= first ? last - first : 0,
    bytes: batches.reduce((sum, batch) => sum + batch.bytes, 0),
    truncated,
  }
  yield `${chunk}],"meta":${JSON.stringify(meta)}}}`
}

/** rrweb's event types that open a page's recording: Meta (4) and FullSnapshot (2). */
const PAGE_START_TYPES: ReadonlySet<number | undefined> = new Set([4, 2])

/**
 * Whether a batch opens a page's recording (its first event a Meta or FullSnapshot): the player needs
 * nothing before it. A recording's numbers may jump there without a part missing: the recorder numbers
 * from the time when it has no storage, and a page that continues an earlier page's numbers may land
 * in a new server session (the server restarted, a day's salt changed).
 */
function startsPage(found: BatchEvents | undefined): boolean {
  return PAGE_START_TYPES.has(found?.firstType)
}

/** The batches in runs of at most `PAYLOAD_QUERY_BYTES` stored, one store query each. */
function* payloadGroups(batches: readonly StoredReplayBatchInfo[]): Generator<StoredReplayBatchInfo[]> {
  let group: StoredReplayBatchInfo[] = []
  let bytes = 0
  for (const batch of batches) {
    if (group.length > 0 && bytes + batch.bytes > PAYLOAD_QUERY_BYTES) {
      yield group
      group = []
      bytes = 0
    }
    group.push(batch)
    bytes += batch.bytes
  }
  if (group.length > 0) yield group
}

/** A stored body's JSON text; undefined when it inflates past `maxBytes` (stored before the limit) or fails. */
async function inflate(
  payload: Buffer,
  encoding: 'gzip' | 'json',
  maxBytes: number,
): Promise<Buffer | undefined> {
  if (encoding === 'json') return payload.length > maxBytes ? undefined : payload
  try {
    return await gunzip(payload, { maxOutputLength: maxBytes })
  } catch {
    return undefined
  }
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
  const { bytes } = await replayBytesOfSession(deps.events, site.site_id, sessionId)
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
