/**
 * Saved segments of a site over the metadata store (SQLite or PostgreSQL): list, find, create, change,
 * delete. Who sees a segment: a `site` segment, every reader of the site; a `personal` one, its
 * creator alone (to anyone else it does not exist: a 404). Who changes one: a personal segment, its
 * creator; a `site` segment (or making one `site`), an admin or owner (else 403). The site access
 * itself is the caller's (`auth/site-access.ts`); every statement is keyed by the site id it is given.
 * Each write is audited (`segment.created`, `segment.updated`, `segment.deleted`) in its transaction.
 */
import { MAX_SEGMENT_ID, type SegmentInput, type SegmentUpdate } from '@pathlight/protocol'
import type { Transaction } from 'kysely'
import { type AuditAction, recordAudit } from '../audit/audit-log.js'
import { isAdminRole } from '../organizations/organizations.js'
import { forbidden, notFound } from '../shared/errors.js'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import type { SiteRow } from '../sites/site.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { MetadataSchema, Role } from '../storage/metadata/schema.js'
import { type Segment, toSegment } from './segment.js'
import { segmentFilters } from './segment-filters.js'

/** The 404 for a segment id that names no segment the caller sees on this site. */
export const segmentNotFound = () => notFound('Segment not found')

/**
 * Whose personal segments a reader sees: a member's user id, or null (a private link key, an
 * anonymous reader of a public site: the site's shared segments only).
 */
export interface SegmentViewer {
  userId: string | null
}

/** A member acting on a site's segments: their user id and role in the site's organization. */
export interface SegmentActor {
  userId: string
  role: Role
}

/** What the segment commands need: the store and the clock (default system). */
export interface SegmentCommandDeps {
  db: MetadataDb
  clock?: Clock
}

/** A `{segmentId}` (path segment or number) as an id, or null unless 1 to `MAX_SEGMENT_ID`. */
export function parseSegmentId(value: unknown): number | null {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{1,10}$/.test(value)
        ? Number(value)
        : Number.NaN
  return Number.isSafeInteger(n) && n > 0 && n <= MAX_SEGMENT_ID ? n : null
}

/** The segments of a site `viewer` sees, oldest first. */
export async function listSegments(
  db: MetadataDb,
  siteId: number,
  viewer: SegmentViewer,
): Promise<Segment[]> {
  const rows = await db
    .selectFrom('segment')
    .selectAll()
    .where('site_id', '=', siteId)
    .where((eb) =>
      viewer.userId === null
        ? eb('visibility', '=', 'site')
        : eb.or([eb('visibility', '=', 'site'), eb('created_by', '=', viewer.userId)]),
    )
    .orderBy('segment_id')
    .execute()
  return rows.map(toSegment)
}

/**
 * One segment of a site that `viewer` sees.
 * @param rawSegmentId the `{segmentId}` path segment or the `segment` query parameter
 * @throws AppError 404 when the id is malformed, names no segment of this site, or names another
 *   user's personal segment
 */
export async function findSegment(
  db: MetadataDb,
  siteId: number,
  viewer: SegmentViewer,
  rawSegmentId: unknown,
): Promise<Segment> {
  const segmentId = parseSegmentId(rawSegmentId)
  const row =
    segmentId === null
      ? undefined
      : await db
          .selectFrom('segment')
          .selectAll()
          .where('site_id', '=', siteId)
          .where('segment_id', '=', segmentId)
          .executeTakeFirst()
  if (!row || (row.visibility === 'personal' && row.created_by !== viewer.userId)) throw segmentNotFound()
  return toSegment(row)
}

/**
 * The segment `segment=ID` of an analytics read names, for a reader the site's access step admitted
 * (`auth/site-access.ts`): one statement, keyed by the site id that step admitted, which also checks
 * the membership a personal segment needs (no second site lookup). A `site` segment serves every
 * reader; a `personal` one its creator alone, while they are a member of the site's organization (a
 * private link key or a public site does not lend it to a creator who has left).
 * @param userId the reader's user (session or API key), null for a private link key or an anonymous reader
 * @param segmentId the parsed `segment` parameter (1 to `MAX_SEGMENT_ID`)
 * @throws AppError 404 `Segment not found` when it names no segment of the site this reader may use
 */
export async function findReadSegment(
  db: MetadataDb,
  siteId: number,
  userId: string | null,
  segmentId: number,
): Promise<Segment> {
  const row = await db
    .selectFrom('segment')
    .selectAll('segment')
    .where('segment.site_id', '=', siteId)
    .where('segment.segment_id', '=', segmentId)
    .where((eb) =>
      userId === null
        ? eb('segment.visibility', '=', 'site')
        : eb.or([
            eb('segment.visibility', '=', 'site'),
            eb.and([
              eb('segment.created_by', '=', userId),
              eb.exists(
                eb
                  .selectFrom('member')
                  .innerJoin('site', 'site.organization_id', 'member.organization_id')
                  .select('member.user_id')
                  .whereRef('site.site_id', '=', 'segment.site_id')
                  .where('member.user_id', '=', userId),
              ),
            ]),
          ]),
    )
    .executeTakeFirst()
  if (!row) throw segmentNotFound()
  return toSegment(row)
}

const sharedNeedsAdmin = () =>
  forbidden('A shared (site) segment is created and changed by admins and owners only')

/**
 * Save filters as a segment of `site` on behalf of `actor` (the protocol's `segmentInput`, parsed).
 * @throws AppError 400 `Invalid segment: filters: ...` for filters the `filters` parameter refuses;
 *   403 for a `site` segment of an actor who is neither admin nor owner
 */
export async function createSegment(
  deps: SegmentCommandDeps,
  site: SiteRow,
  actor: SegmentActor,
  input: SegmentInput,
): Promise<Segment> {
  if (input.visibility === 'site' && !isAdminRole(actor.role)) throw sharedNeedsAdmin()
  const filters = segmentFilters(input.filters)
  const now = isoNow(deps.clock ?? systemClock)
  const write = async (trx: Transaction<MetadataSchema>) =>
    toSegment(
      await trx
        .insertInto('segment')
        .values({
          site_id: site.site_id,
          created_by: actor.userId,
          name: input.name,
          filters: JSON.stringify(filters),
          visibility: input.visibility,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    )
  return commit(deps, { site, actor, action: 'segment.created' }, write)
}

/**
 * Change any subset of a segment's `{name, filters, visibility}` (`filters` replaced whole).
 * @param current the segment as the actor sees it (`findSegment`)
 * @throws AppError 400 for refused filters; 403 when the segment is or becomes shared and the actor is
 *   neither admin nor owner; 404 when it is gone meanwhile
 */
export async function updateSegment(
  deps: SegmentCommandDeps,
  site: SiteRow,
  actor: SegmentActor,
  current: Segment,
  update: SegmentUpdate,
): Promise<Segment> {
  assertMayChange(actor, current)
  if (update.visibility === 'site' && !isAdminRole(actor.role)) throw sharedNeedsAdmin()
  const filters = update.filters === undefined ? undefined : segmentFilters(update.filters)
  const write = async (trx: Transaction<MetadataSchema>) => {
    const row = await trx
      .updateTable('segment')
      .set({
        ...(update.name === undefined ? {} : { name: update.name }),
        ...(filters === undefined ? {} : { filters: JSON.stringify(filters) }),
        ...(update.visibility === undefined ? {} : { visibility: update.visibility }),
        updated_at: isoNow(deps.clock ?? systemClock),
      })
      .where('site_id', '=', site.site_id)
      .where('segment_id', '=', current.segmentId)
      .returningAll()
      .executeTakeFirst()
    if (!row) throw segmentNotFound()
    return toSegment(row)
  }
  return commit(deps, { site, actor, action: 'segment.updated' }, write)
}

/**
 * Delete a segment, irreversibly.
 * @param current the segment as the actor sees it (`findSegment`)
 * @throws AppError 403 for a shared segment and an actor neither admin nor owner; 404 when it is gone
 */
export async function deleteSegment(
  deps: SegmentCommandDeps,
  site: SiteRow,
  actor: SegmentActor,
  current: Segment,
): Promise<void> {
  assertMayChange(actor, current)
  const write = async (trx: Transaction<MetadataSchema>) => {
    const result = await trx
      .deleteFrom('segment')
      .where('site_id', '=', site.site_id)
      .where('segment_id', '=', current.segmentId)
      .executeTakeFirst()
    if (Number(result.numDeletedRows) === 0) throw segmentNotFound()
    return current
  }
  await commit(deps, { site, actor, action: 'segment.deleted' }, write)
}

/** A shared segment is changed by admins and owners; a personal one (seen, so the actor's) by its creator. */
function assertMayChange(actor: SegmentActor, current: Segment) {
  if (current.visibility === 'site' && !isAdminRole(actor.role)) throw sharedNeedsAdmin()
}

/** Run `write` in a transaction with its audit entry (the segment as written, or as deleted). */
async function commit(
  deps: SegmentCommandDeps,
  entry: { site: SiteRow; actor: SegmentActor; action: AuditAction },
  write: (trx: Transaction<MetadataSchema>) => Promise<Segment>,
): Promise<Segment> {
  const { site, actor, action } = entry
  return deps.db.transaction().execute(async (trx) => {
    const segment = await write(trx)
    await recordAudit(
      trx,
      {
        organizationId: site.organization_id,
        siteId: site.site_id,
        actorUserId: actor.userId,
        action,
        details: {
          segmentId: segment.segmentId,
          name: segment.name,
          visibility: segment.visibility,
          filters: segment.filters,
        },
      },
      deps.clock ?? systemClock,
    )
    return segment
  })
}
