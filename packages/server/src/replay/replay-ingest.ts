/**
 * The session replay use case behind `POST /api/replay`: one batch of a recording in, committed to the
 * events store's `replay` table (directly: not through the tracking write buffer), or refused.
 *
 * Order: decode (400, 413) -> site (404) -> `sessionReplay` off (200 `recorded:false`) -> the keyless
 * checks of `/api/track` as ingest stages on a draft (domain 403, bots 403, excluded IP or country 200
 * `recorded:false`) -> the visitor's id and session, exactly as `putUserId` and `putSession` make them,
 * so the batch joins the session the visitor's pageviews get (and keeps it alive, as an event would)
 * -> sampling (200 `recorded:false`) -> the per-session cap -> insert, grouped with the batches that
 * arrive meanwhile (503 on failure).
 *
 * The limits (`replay-limits.ts`) count a batch's JSON once inflated, never the bytes sent: a batch over
 * `maxBatchBytes` answers 413. The per-session cap: once a session's stored batches reach
 * `maxSessionBytes` of JSON, later batches are acknowledged and dropped (200 `recorded:false`, reason
 * `session over its replay cap`): a 4xx would read as a broken client, and the recorder should simply
 * stop. The batch that crosses the cap is still stored, so a session holds at most the cap plus one
 * batch. What a session holds is read from the
 * store once per process and then counted here (`SESSION_BYTES_TTL_MS` after the session's last
 * batch), so a batch costs no query; with several API nodes, each counts what it stored, and the store's
 * figure is read again on a node that has not seen the session, so a session can exceed the cap by the
 * batches other nodes took since. API keys play no part: replay is for browsers, and the checks are
 * those of a keyless tracking request.
 */
import type { TrackPayload } from '@pathlight/protocol'
import type { IngestDeps } from '../ingest/deps.js'
import type { Draft, Incoming } from '../ingest/draft.js'
import { type RejectReason, toResponse } from '../ingest/outcome.js'
import type { Stage } from '../ingest/pipeline.js'
import { checkDomain } from '../ingest/stages/check-domain.js'
import { dropBots } from '../ingest/stages/drop-bots.js'
import { dropExcludedCountry } from '../ingest/stages/drop-excluded-country.js'
import { dropExcludedIp } from '../ingest/stages/drop-excluded-ip.js'
import { putGeolocation } from '../ingest/stages/put-geolocation.js'
import { putUserAgent } from '../ingest/stages/put-user-agent.js'
import { putUserId } from '../ingest/stages/put-user-id.js'
import { toEventRow } from '../ingest/to-event-row.js'
import { createWriteBuffer } from '../ingest/write-buffer.js'
import { replayBytesOfSession } from '../query/replay.js'
import { errorBody } from '../shared/errors.js'
import { createTtlCache } from '../shared/ttl-cache.js'
import { parseSiteId } from '../sites/sites.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { ReplayRow } from '../storage/events/replay-row.js'
import { decodeReplayBody } from './decode-replay-body.js'
import { isReplaySampled } from './is-replay-sampled.js'
import { DEFAULT_REPLAY_LIMITS, type ReplayLimits } from './replay-limits.js'

/** The largest body `POST /api/replay` takes, as sent (gzip or JSON), in bytes. */
export const MAX_REPLAY_BODY_BYTES = 1024 * 1024

const DAY_MS = 24 * 60 * 60_000
/** How long a session's byte count is kept after its last batch (sessions end after 30 min idle). */
const SESSION_BYTES_TTL_MS = 60 * 60_000
const SESSION_BYTES_MAX_SESSIONS = 100_000
/** Replay batches per insert at most (each at most 1 MB as sent). */
const REPLAY_INSERT_MAX_BATCHES = 32
/** How long a batch waits for others to share its insert when none is running, in ms. */
const REPLAY_INSERT_DELAY_MS = 5

/** The checks of a keyless tracking request that a replay batch passes too, in the pipeline's order. */
export const replayStages = [
  checkDomain,
  dropBots,
  dropExcludedIp,
  putGeolocation,
  dropExcludedCountry,
  putUserAgent,
  putUserId,
] as const satisfies readonly Stage[]

/** A replay request without transport types: the raw body and the headers the checks read. */
export type ReplayIncoming = Omit<Incoming, 'body' | 'authorization'> & { body: Buffer }

export interface ReplayResult {
  status: number
  body: Record<string, unknown>
  /** The session the batch was attached to, once it was known. */
  sessionId?: string
}

export interface ReplayIngest {
  accept(incoming: ReplayIncoming): Promise<ReplayResult>
}

const notRecorded = (reason: string, sessionId?: string): ReplayResult => ({
  status: 200,
  body: { success: true, recorded: false, reason },
  sessionId,
})

/** A pipeline reason as this endpoint answers it: exclusions say `recorded:false`, not `tracked:false`. */
function refuse(reason: RejectReason): ReplayResult {
  const response = toResponse(reason)
  return response.status === 200 ? notRecorded(String(response.body.reason)) : response
}

export function createReplayIngest(
  deps: IngestDeps & { events: EventsStore },
  limits: ReplayLimits = DEFAULT_REPLAY_LIMITS,
): ReplayIngest {
  /** JSON bytes stored per `siteId:sessionId`, as far as this process knows. */
  const sessionBytes = createTtlCache<string, number>({
    ttlMs: SESSION_BYTES_TTL_MS,
    maxEntries: SESSION_BYTES_MAX_SESSIONS,
    lru: true,
  })
  // Batches arriving while an insert runs are committed together by the next: one insert (one part in
  // the replay table) per few batches under load, each batch still answered once it is committed.
  const writes = createWriteBuffer<ReplayRow>((rows) => deps.events.insertReplay(rows), {
    maxRows: REPLAY_INSERT_MAX_BATCHES,
    maxDelayMs: REPLAY_INSERT_DELAY_MS,
    maxConcurrentWrites: 1,
  })
  return {
    async accept(incoming) {
      const decoded = await decodeReplayBody(incoming.body, limits.maxBatchBytes)
      if (!decoded.ok) return { status: decoded.status, body: errorBody(decoded.error, decoded.details) }
      const { batch, encoding, jsonBytes } = decoded
      const siteId = parseSiteId(batch.site_id)
      const site = siteId === null ? null : await deps.sites.get(siteId)
      if (!site) return refuse({ kind: 'site_not_found' })
      if (!site.sessionReplay) return notRecorded('replay is off for this site')

      const now = deps.clock()
      const payload: TrackPayload = { site_id: batch.site_id, type: 'pageview', user_id: batch.user_id }
      const draft: Draft = {
        incoming: { ...incoming, body: undefined, authorization: undefined },
        now,
        payload,
        site,
        authenticated: false,
        ip: incoming.ip,
        userAgent: incoming.userAgent ?? '',
        newSession: false,
        row: toEventRow(payload, site.siteId, now),
      }
      for (const stage of replayStages) {
        const result = await stage(draft, deps)
        if (!result.ok) return refuse(result.reason)
      }
      const { sessionId } = await deps.sessions.touch(
        draft.sessionKey ?? `${site.siteId}:${draft.row.user_id}`,
        now,
      )
      if (!isReplaySampled(sessionId, site.replaySampleRate)) return notRecorded('not sampled', sessionId)

      try {
        const key = `${site.siteId}:${sessionId}`
        const stored =
          sessionBytes.get(key) ?? (await replayBytesOfSession(deps.events, site.siteId, sessionId)).jsonBytes
        if (stored >= limits.maxSessionBytes) {
          sessionBytes.set(key, stored)
          return notRecorded('session over its replay cap', sessionId)
        }
        const first = batch.events[0]?.timestamp ?? now
        await writes.add({
          site_id: site.siteId,
          session_id: sessionId,
          sequence: batch.sequence,
          timestamp: new Date(first).toISOString(),
          received_at: new Date(now).toISOString(),
          expires_at: new Date(now + site.replayRetentionDays * DAY_MS).toISOString(),
          bytes: incoming.body.length,
          json_bytes: jsonBytes,
          encoding,
          payload: incoming.body,
        })
        // Batches of the session committed meanwhile have counted themselves in.
        sessionBytes.set(key, Math.max(stored, sessionBytes.get(key) ?? 0) + jsonBytes)
      } catch {
        return { ...refuse({ kind: 'store_unavailable' }), sessionId }
      }
      return { status: 200, body: { success: true, recorded: true }, sessionId }
    },
  }
}
