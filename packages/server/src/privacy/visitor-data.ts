/**
 * Data-subject requests about one visitor of a site (GDPR articles 15 and 17): the export of their
 * events and the erasure of everything stored about them in the events store.
 *
 * A visitor is a value of the events' `user_id` column, named two ways:
 * - `user`: the `user_id` the site sent when tracking (1 to 256 characters, as the tracking body
 *   takes it), e.g. the site's own account id;
 * - `visitor`: the anonymous id ingest derives when no `user_id` is sent, 16 lowercase hex digits
 *   (`ingest/stages/put-user-id.ts`); on sites that salt ids daily, a new one every UTC day.
 * Both reach the same rows; `visitor` only checks that the id has the anonymous form.
 *
 * Each request is audited (`visitor.exported`, `visitor.erased`) with a SHA-256 of the id, not the id:
 * the trail shows which request was answered (hash the id to match it) without keeping a copy of it.
 */
import crypto from 'node:crypto'
import { recordAudit } from '../audit/audit-log.js'
import type { WriteBuffer } from '../ingest/write-buffer.js'
import { EXPORT_PAGE_ROWS, type ExportCursor } from '../query/export-events.js'
import { invalidParameters } from '../query/params.js'
import { type ErasedVisitor, eraseVisitorEvents, visitorEventsPage } from '../query/visitor-events.js'
import type { Clock } from '../shared/time.js'
import type { SiteRow } from '../sites/site.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { toExportedEvent } from '../transfer/exported-event.js'
import { eraseProfile, findProfile, type UserProfile } from '../users/user-profiles.js'
import { deleteVisitorDeliveries } from './webhook-deliveries.js'

/** How the request names the visitor: the tracked `user_id`, or the anonymous visitor id. */
export type VisitorKind = 'user' | 'visitor'

/** The anonymous visitor id ingest derives: the first 16 hex digits of a SHA-256. */
export const ANONYMOUS_VISITOR_ID = /^[0-9a-f]{16}$/

/** The longest `user_id` the tracking body and the import take. */
export const MAX_USER_ID_LENGTH = 256

/** The path parameter naming the visitor, per kind. */
export const visitorParam: Record<VisitorKind, 'userId' | 'visitorId'> = {
  user: 'userId',
  visitor: 'visitorId',
}

/**
 * The stored `user_id` a request names.
 * @param raw the path parameter (`userId` or `visitorId`)
 * @throws AppError 400 naming the parameter: an empty, blank or over-long user id (ingest stores ids
 *   trimmed, so one with surrounding spaces names nobody), or a visitor id not of 16 lowercase hex digits
 */
export function parseVisitorId(kind: VisitorKind, raw: unknown): string {
  const name = visitorParam[kind]
  const fail = (problem: string) => invalidParameters({ [name]: [problem] })
  if (typeof raw !== 'string' || raw.length === 0) throw fail('must not be empty')
  if (kind === 'visitor') {
    if (!ANONYMOUS_VISITOR_ID.test(raw)) {
      throw fail('must be 16 lowercase hex digits (the anonymous visitor id, `user_id` of its events)')
    }
    return raw
  }
  if (raw.length > MAX_USER_ID_LENGTH) throw fail(`must be at most ${MAX_USER_ID_LENGTH} characters`)
  if (raw.trim() !== raw) throw fail('must not start or end with whitespace (user ids are stored trimmed)')
  return raw
}

/** SHA-256 of the id, hex: what the audit trail keeps of it. */
export const visitorIdDigest = (id: string): string => crypto.createHash('sha256').update(id).digest('hex')

/** What the requests need. */
export interface VisitorDataDeps {
  db: MetadataDb
  events: EventsStore
  /** The ingest write buffer: flushed first, so that events accepted just before are erased too. */
  buffer: WriteBuffer
  clock?: Clock
}

/** What an erasure removed: events, sessions and replay batches, and webhook deliveries. */
export type VisitorErasure = ErasedVisitor & {
  /** Webhook deliveries (sent or pending) whose body named the visitor or one of their sessions. */
  webhookDeliveries: number
}

/**
 * Erase the visitor's data from the site: every event with their `user_id`, every other event of
 * their sessions, those sessions' replay recordings, their share of the rollups
 * (`query/visitor-events.ts`), and the webhook deliveries naming them (`webhook-deliveries.ts`). Events accepted before the call (in the ingest journal or write buffer)
 * are committed first and erased with the rest. Idempotent: erasing again answers zeros. Audited as
 * `visitor.erased` with the counts, whatever they are.
 * @throws the events store's error (nothing audited; running it again finishes the erasure)
 */
export async function eraseVisitor(
  deps: VisitorDataDeps,
  site: SiteRow,
  actorUserId: string,
  kind: VisitorKind,
  id: string,
): Promise<VisitorErasure> {
  await deps.buffer.flush()
  const { sessionIds, ...events } = await eraseVisitorEvents(deps.events, site.site_id, id)
  const erased = {
    ...events,
    webhookDeliveries: await deleteVisitorDeliveries(deps.db, site.site_id, id, sessionIds),
  }
  // An identified user's profile (traits) and the visitor links to them go too.
  if (kind === 'user') await eraseProfile(deps.db, site.site_id, id)
  await recordAudit(
    deps.db,
    {
      organizationId: site.organization_id,
      siteId: site.site_id,
      actorUserId,
      action: 'visitor.erased',
      details: { kind, idSha256: visitorIdDigest(id), ...erased },
    },
    deps.clock,
  )
  return erased
}

/**
 * Start the export of the visitor's events: audited as `visitor.exported` now, then the NDJSON text a
 * page at a time as it is read (lines of the site export, `transfer/exported-event.ts`; the visitor's
 * own events, oldest first). Events accepted before the call are committed first.
 * @returns chunks of whole lines ending in `\n`; none for a visitor with no events
 */
export async function exportVisitor(
  deps: VisitorDataDeps,
  site: SiteRow,
  actorUserId: string,
  kind: VisitorKind,
  id: string,
): Promise<AsyncGenerator<string>> {
  await deps.buffer.flush()
  await recordAudit(
    deps.db,
    {
      organizationId: site.organization_id,
      siteId: site.site_id,
      actorUserId,
      action: 'visitor.exported',
      details: { kind, idSha256: visitorIdDigest(id) },
    },
    deps.clock,
  )
  const profile = kind === 'user' ? await findProfile(deps.db, site.site_id, id) : null
  return withProfileLine(visitorLines(deps.events, site.site_id, id), profile)
}

/**
 * The export's lines, then, for an identified user with a profile, one last line
 * `{"user_profile": {userId, traits: {key: {value, changedAt}}, createdAt, updatedAt}}`.
 */
async function* withProfileLine(
  lines: AsyncGenerator<string>,
  profile: UserProfile | null,
): AsyncGenerator<string> {
  yield* lines
  if (profile) yield `${JSON.stringify({ user_profile: profile })}\n`
}

/**
 * The visitor's events as NDJSON, a chunk per page.
 * @throws when the events store fails mid-way (the lines sent so far are a prefix of the export)
 */
async function* visitorLines(events: EventsStore, siteId: number, userId: string): AsyncGenerator<string> {
  let after: ExportCursor | null = null
  for (;;) {
    const rows = await visitorEventsPage(events, siteId, userId, after)
    if (rows.length === 0) return
    let chunk = ''
    for (const row of rows) chunk += `${JSON.stringify(toExportedEvent(row))}\n`
    yield chunk
    if (rows.length < EXPORT_PAGE_ROWS) return
    const last = rows[rows.length - 1] as (typeof rows)[number]
    after = { timestamp: last.timestamp, eventId: last.event_id }
  }
}
