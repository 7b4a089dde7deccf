/**
 * Bulk import of a site's history (`POST /api/sites/{siteId}/import`): entries parsed from the body
 * (`ndjson-entries.ts`, `umami-entries.ts`), each one event in one of two forms.
 * - **Raw**: the tracking body's fields (`type` default pageview, `pathname`, `hostname`, `page_title`,
 *   `referrer`, `querystring`, `user_agent`, `ip_address`, `user_id`, `screenWidth`, ... `properties` as
 *   a JSON object string or an object) plus a required `timestamp` (ISO 8601 with `Z` or an offset).
 *   Enriched as live tracking enriches (geolocation, user agent, channel and UTM, visitor id with the
 *   salt of the event's own UTC day when the site salts ids), and sessionized by timestamp
 *   (`import-sessions.ts`). A line without `event_id` gets an id that keeps its place among the
 *   events of its millisecond (`import-event-ids.ts`: reports break ties on the id). The site's bot
 *   blocking (for lines with a user agent) and IP and country exclusions apply (dropped, by reason);
 *   its domain, quota, rate limit and feature switches do not (an import is deliberate, like an
 *   API-key request). A `site_id` in the line is ignored.
 * - **Stored**: a row taken as is (an export's line, `exported-event.ts`, or another tool's event with
 *   its own id). An `event_id` the site already holds, or one repeated in the import, is dropped as
 *   `duplicate`, so importing an export twice adds nothing.
 * A bad line is rejected (numbered from 1, the error naming the field) and never stops the others.
 * Rows are inserted in batches of `BATCH_ROWS`, one batch stored while the next is enriched; when the
 * promise resolves every imported event is committed and readable. No webhooks or alerts fire for imported (past) events.
 */
import { trackPayloadSchema, type ImportResult as WireImportResult } from '@pathlight/protocol'
import { recordAudit } from '../audit/audit-log.js'
import type { IngestDeps } from '../ingest/deps.js'
import type { Draft } from '../ingest/draft.js'
import { parseIp } from '../ingest/enrich/parse-ip.js'
import { toIngestSite } from '../ingest/ingest-site.js'
import { reasonKey } from '../ingest/outcome.js'
import type { Stage } from '../ingest/pipeline.js'
import { dropBots } from '../ingest/stages/drop-bots.js'
import { dropExcludedCountry } from '../ingest/stages/drop-excluded-country.js'
import { dropExcludedIp } from '../ingest/stages/drop-excluded-ip.js'
import { putChannel } from '../ingest/stages/put-channel.js'
import { putGeolocation } from '../ingest/stages/put-geolocation.js'
import { putUserAgent } from '../ingest/stages/put-user-agent.js'
import { putUserId } from '../ingest/stages/put-user-id.js'
import { toEventRow } from '../ingest/to-event-row.js'
import { storedEventIds } from '../query/stored-event-ids.js'
import type { SiteRow } from '../sites/site.js'
import type { EventRow } from '../storage/events/event-row.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { parseIsoTimestamp } from './calendar-time.js'
import { firstIssue } from './first-issue.js'
import type { ImportEntry } from './import-entry.js'
import { createImportEventIds } from './import-event-ids.js'
import { createImportSessions } from './import-sessions.js'

/**
 * Rows per insert. Each insert makes a part in `events` and in every rollup table its views fill, which
 * background merges then join (CPU a report right after the import shares): 25,000-row inserts made
 * the store's own insert cost half the CPU per row of 5,000-row ones (bench/README.md "import"). One
 * batch is filled while the one before is stored, so two are held at once.
 */
export const BATCH_ROWS = 25_000
/** Rejected lines listed in the answer (all are counted). */
export const MAX_REJECTED_LISTED = 100
/** How far in the future a timestamp may lie (clock skew), ms. */
const FUTURE_SLACK_MS = 5 * 60_000

/**
 * Bots as live tracking drops them on sites that block bots, but for an empty user agent: a keyless
 * browser request without one is suspect, an imported line without one merely lacks the field.
 */
const dropImportedBots: Stage = (draft) => (draft.userAgent === '' ? { ok: true } : dropBots(draft))

/** The stages of live tracking that an import runs, in the pipeline's order. */
const importStages: readonly Stage[] = [
  dropImportedBots,
  dropExcludedIp,
  putGeolocation,
  dropExcludedCountry,
  putUserAgent,
  putChannel,
  putUserId,
]

/**
 * What an import stored, dropped (by reason) and rejected (the first `MAX_REJECTED_LISTED` lines): the
 * protocol's `ImportResult` without `success`, which the route adds.
 */
export type ImportResult = Omit<WireImportResult, 'success'>

export interface ImportDeps {
  /** The ports live tracking enriches with (geolocation, salts, clock, ...). */
  ingest: IngestDeps
  events: EventsStore
  /** Where the audit entry goes. */
  db: MetadataDb
}

/**
 * Import the entries into `site`, and record it in the audit trail (`events.imported`, with the counts).
 * @param entries the source's records, parsed (`ndjsonEntries`, `umamiEntries`)
 * @param actorUserId who imports (an admin or owner of the site's organization)
 * @throws the source's error after storing and auditing every entry read before it; the events store's
 *   error when an insert fails (the rows of earlier batches stay stored)
 */
export async function importEvents(
  deps: ImportDeps,
  site: SiteRow,
  entries: AsyncIterable<ImportEntry> | Iterable<ImportEntry>,
  actorUserId: string,
): Promise<ImportResult> {
  const result: ImportResult = { imported: 0, dropped: {}, rejectedCount: 0, rejected: [] }
  const drop = (reason: string, count = 1) => {
    result.dropped[reason] = (result.dropped[reason] ?? 0) + count
  }
  const reject = (line: number, error: string) => {
    result.rejectedCount++
    if (result.rejected.length < MAX_REJECTED_LISTED) result.rejected.push({ line, error })
  }
  const ingestSite = toIngestSite(site)
  const sessions = createImportSessions()
  const eventIds = createImportEventIds()
  const stageDeps = { ...deps.ingest, salts: memoizedSalts(deps.ingest.salts) }
  /** Stored ids of the batch being filled (earlier batches are committed: `storedEventIds` sees them). */
  const seenIds = new Set<string>()
  let batch: EventRow[] = []
  let storedInBatch = false

  /** Store one batch: drop the stored ids the site already holds, then insert. */
  const store = async (rows: EventRow[], checkStored: boolean) => {
    if (checkStored) {
      const stored = await storedEventIds(deps.events, rows)
      if (stored.size > 0) {
        rows = rows.filter((row) => !stored.has(row.event_id))
        drop('duplicate', stored.size)
      }
    }
    if (rows.length > 0) await deps.events.insert(rows)
    result.imported += rows.length
  }
  // One batch is stored while the next is parsed and enriched; at most one is in flight.
  let inFlight: Promise<void> | undefined
  const flush = async () => {
    const rows = batch
    const checkStored = storedInBatch
    batch = []
    storedInBatch = false
    seenIds.clear()
    await inFlight
    inFlight = store(rows, checkStored)
    // Failures surface at the next await of `inFlight`; keep them from counting as unhandled meanwhile.
    inFlight.catch(() => {})
  }

  // A source that fails (a body over its limit, a broken connection) still leaves everything read
  // before it stored and audited; then its error is the answer.
  let sourceError: unknown
  try {
    for await (const entry of entries) {
      const now = deps.ingest.clock()
      if ('error' in entry) {
        reject(entry.line, entry.error)
        continue
      }
      if ('dropped' in entry) {
        drop(entry.dropped)
        continue
      }
      if ('stored' in entry) {
        if (Date.parse(entry.stored.timestamp) > now + FUTURE_SLACK_MS) {
          reject(entry.line, 'timestamp: must not be in the future')
          continue
        }
        if (seenIds.has(entry.stored.event_id)) {
          drop('duplicate')
          continue
        }
        seenIds.add(entry.stored.event_id)
        batch.push({ ...entry.stored, site_id: site.site_id })
        storedInBatch = true
      } else {
        const outcome = await enrichRawLine(entry.raw, ingestSite, stageDeps, now)
        if ('error' in outcome) {
          reject(entry.line, outcome.error)
          continue
        }
        if ('dropped' in outcome) {
          drop(outcome.dropped)
          continue
        }
        const row = outcome.row
        // Without an id of its own: one that keeps the line's place among the events of its millisecond.
        if (entry.raw.event_id === undefined) row.event_id = eventIds(Date.parse(row.timestamp))
        if (entry.raw.event_id !== undefined) {
          // A raw line with its own event_id is imported once, like an exported one.
          if (seenIds.has(row.event_id)) {
            drop('duplicate')
            continue
          }
          seenIds.add(row.event_id)
          storedInBatch = true
        }
        row.session_id = sessions.assign(row.user_id, Date.parse(row.timestamp))
        batch.push(row)
      }
      if (batch.length >= BATCH_ROWS) await flush()
    }
  } catch (error) {
    sourceError = error
  }
  if (batch.length > 0) await flush()
  await inFlight
  await recordAudit(
    deps.db,
    {
      organizationId: site.organization_id,
      siteId: site.site_id,
      actorUserId,
      action: 'events.imported',
      details: { imported: result.imported, dropped: result.dropped, rejectedCount: result.rejectedCount },
    },
    deps.ingest.clock,
  )
  if (sourceError !== undefined) throw sourceError
  return result
}

/** A raw line through the import stages: the enriched row, a drop reason, or a rejection. */
async function enrichRawLine(
  line: Record<string, unknown>,
  site: ReturnType<typeof toIngestSite>,
  deps: IngestDeps,
  now: number,
): Promise<{ row: EventRow } | { dropped: string } | { error: string }> {
  const { timestamp, site_id: _ignored, ...fields } = line
  if (timestamp === undefined) return { error: 'timestamp: is required (ISO 8601 with Z or an offset)' }
  const parsedTime = parseIsoTimestamp(timestamp)
  if ('error' in parsedTime) return { error: `timestamp: ${parsedTime.error}` }
  const at = parsedTime.at
  if (at > now + FUTURE_SLACK_MS) return { error: 'timestamp: must not be in the future' }
  const parsed = trackPayloadSchema.safeParse({ ...fields, site_id: String(site.siteId) })
  if (!parsed.success) return { error: firstIssue(parsed.error.issues) }
  const payload = parsed.data
  if (payload.ip_address && parseIp(payload.ip_address) === null) {
    return { error: 'ip_address: must be an IPv4 or IPv6 address' }
  }
  const draft: Draft = {
    incoming: {
      body: line,
      authorization: undefined,
      origin: undefined,
      referer: undefined,
      userAgent: undefined,
      ip: '',
    },
    now: at,
    payload,
    site,
    authenticated: false,
    ip: payload.ip_address ?? '',
    userAgent: payload.user_agent ?? '',
    newSession: false,
    row: toEventRow(payload, site.siteId, at),
  }
  for (const stage of importStages) {
    const pending = stage(draft, deps)
    const result = pending instanceof Promise ? await pending : pending
    if (!result.ok) return { dropped: reasonKey(result.reason) }
  }
  return { row: draft.row }
}

/**
 * The day salts, remembered for the whole import: an import walks many past days, and the store keeps
 * only one day cached (it deletes salts more than two days older than the day asked for).
 */
function memoizedSalts(salts: IngestDeps['salts']): IngestDeps['salts'] {
  const byDay = new Map<string, Promise<string>>()
  return {
    instance: salts.instance,
    forDay(now) {
      const day = new Date(now).toISOString().slice(0, 10)
      let salt = byDay.get(day)
      if (!salt) {
        salt = salts.forDay(now)
        byDay.set(day, salt)
      }
      return salt
    },
  }
}
