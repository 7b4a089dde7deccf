import type { IngestDeps } from '../deps.js'
import type { Draft } from '../draft.js'
import { ok, reject, type StageResult } from '../outcome.js'

/**
 * Idempotent tracking: an event with an `event_id` already stored for the site within 24 hours is
 * acknowledged (200 `{success:true}`, as the first time) and not stored again. The last stage, so that
 * only events about to be committed claim their id; `ingest.ts` releases the claim when the commit fails.
 */
export async function dropRepeatedEvent(draft: Draft, deps: IngestDeps): Promise<StageResult> {
  const eventId = draft.payload.event_id
  if (eventId === undefined) return ok
  const isNew = await deps.eventIds.claim(eventIdKey(draft))
  return isNew ? ok : reject({ kind: 'repeated_event' })
}

/** The registry key of a draft's `event_id`: `${siteId}:${eventId}`. */
export const eventIdKey = (draft: Draft): string => `${draft.site.siteId}:${draft.row.event_id}`
