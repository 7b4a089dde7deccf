/**
 * The tracking use case: run one request through the pipeline and commit the event.
 * `accept` never throws for bad input; it resolves to the HTTP status and body to answer.
 * The 200 goes out only after the row is committed (group commit); a store failure answers 503.
 */

import { parseSiteId } from '../sites/sites.js'
import type { IngestDeps } from './deps.js'
import type { Draft, Incoming } from './draft.js'
import type { IngestStatsCounter } from './ingest-stats.js'
import { reasonKey, toResponse } from './outcome.js'
import { stages } from './pipeline.js'
import { eventIdKey } from './stages/drop-repeated-event.js'
import { parsePayload } from './stages/parse-payload.js'
import { toEventRow } from './to-event-row.js'
import type { WriteBuffer } from './write-buffer.js'

const accepted = Object.freeze({ success: true })

export interface IngestResult {
  status: number
  body: Record<string, unknown>
  /** The committed draft (tests and event listeners use it), when the event was recorded. */
  draft?: Draft
}

/**
 * Listeners called after an event is committed (the webhook outbox hooks in here). A returned promise
 * is awaited before the answer goes out (the outbox group-commits, so this is one shared write); its
 * failure is reported through `onListenerError` and does not fail the request: the event is stored.
 */
export interface IngestListeners {
  onCommitted?: (draft: Draft) => Promise<void> | undefined
  onListenerError?: (error: unknown) => void
}

export interface Ingest {
  accept(incoming: Incoming): Promise<IngestResult>
  stats: IngestStatsCounter
  /** The ports the pipeline enriches with (the bulk import runs the same stages with them). */
  readonly deps: IngestDeps
}

export function createIngest(
  deps: IngestDeps,
  buffer: WriteBuffer,
  stats: IngestStatsCounter,
  listeners: IngestListeners = {},
): Ingest {
  const refuse = (reason: Parameters<typeof toResponse>[0], siteId?: number): IngestResult => {
    stats.dropped(reasonKey(reason), siteId)
    return toResponse(reason)
  }

  return {
    stats,
    deps,
    async accept(incoming) {
      const parsed = parsePayload(incoming)
      if (!parsed.ok) return refuse(parsed.reason)
      const siteId = parseSiteId(parsed.payload.site_id)
      const site = siteId === null ? null : await deps.sites.get(siteId)
      if (!site) return refuse({ kind: 'site_not_found' })

      const now = deps.clock()
      const draft: Draft = {
        incoming,
        now,
        payload: parsed.payload,
        site,
        authenticated: false,
        // The transport's own; a server API key may name the visitor's instead (`authenticateKey`).
        ip: incoming.ip,
        userAgent: incoming.userAgent ?? '',
        newSession: false,
        row: toEventRow(parsed.payload, site.siteId, now),
      }
      for (const stage of stages) {
        const pending = stage(draft, deps)
        // Most stages are synchronous: awaiting only real promises saves a microtask each.
        const result = pending instanceof Promise ? await pending : pending
        if (!result.ok) return refuse(result.reason, site.siteId)
      }

      try {
        await buffer.add(draft.row)
      } catch {
        // The client will retry with the same event_id: that retry must be stored.
        if (parsed.payload.event_id !== undefined)
          await deps.eventIds.release(eventIdKey(draft)).catch(() => {})
        return refuse({ kind: 'store_unavailable' }, site.siteId)
      }
      stats.accepted()
      if (draft.row.type === 'pageview' && site.monthlyPageviewLimit !== null) {
        await deps.quota.add(site.siteId, 1, now)
      }
      const listening = listeners.onCommitted?.(draft)
      if (listening) await listening.catch((error: unknown) => listeners.onListenerError?.(error))
      return { status: 200, body: accepted, draft }
    },
  }
}
