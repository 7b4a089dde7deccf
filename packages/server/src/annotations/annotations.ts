/**
 * Annotations of a site over the metadata store (SQLite or PostgreSQL): list over a range of days,
 * write, change, delete. Access checks live with the caller (`auth/site-access.ts`); these functions
 * trust the site they are given and never reach another site's annotations (every statement is keyed
 * by site and annotation id). Each write is audited (`annotation.created`, `annotation.updated`,
 * `annotation.deleted`, with the annotation's id, day and text) in its transaction.
 */
import type { Annotation, AnnotationInput, AnnotationUpdate } from '@pathlight/protocol'
import type { Selectable, Transaction } from 'kysely'
import { type AuditAction, recordAudit } from '../audit/audit-log.js'
import { notFound } from '../shared/errors.js'
import { type Clock, isoNow } from '../shared/time.js'
import type { SiteRow } from '../sites/site.js'
import type { AnnotationTable } from '../storage/metadata/annotation-schema.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { MetadataSchema } from '../storage/metadata/schema.js'

/** The 404 for an id that names no annotation of the site. */
export const annotationNotFound = () => notFound('Annotation not found')

/** An `{id}` path segment as an annotation id, or null when it is not a positive 32-bit integer. */
export function parseAnnotationId(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN
  return Number.isSafeInteger(n) && n > 0 && n <= 0x7fffffff ? n : null
}

const toAnnotation = (row: Selectable<AnnotationTable>): Annotation => ({
  id: row.annotation_id,
  date: row.date,
  text: row.text,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
})

/**
 * A site's annotations on the days `startDate`..`endDate` (both YYYY-MM-DD, included; either open when
 * absent), by day, then in the order written.
 */
export async function listAnnotations(
  db: MetadataDb,
  siteId: number,
  days: { startDate?: string; endDate?: string } = {},
): Promise<Annotation[]> {
  let query = db.selectFrom('annotation').selectAll().where('site_id', '=', siteId)
  if (days.startDate !== undefined) query = query.where('date', '>=', days.startDate)
  if (days.endDate !== undefined) query = query.where('date', '<=', days.endDate)
  const rows = await query.orderBy('date').orderBy('annotation_id').execute()
  return rows.map(toAnnotation)
}

/** What the annotation commands need: the store and the clock (default system). */
export interface AnnotationCommandDeps {
  db: MetadataDb
  clock?: Clock
}

/** Write an annotation of `site` on behalf of `actorUserId` (a parsed `annotationInput`). */
export async function createAnnotation(
  deps: AnnotationCommandDeps,
  site: SiteRow,
  actorUserId: string,
  input: AnnotationInput,
): Promise<Annotation> {
  const now = isoNow(deps.clock)
  return commit(deps, { site, actorUserId, action: 'annotation.created' }, async (trx) =>
    toAnnotation(
      await trx
        .insertInto('annotation')
        .values({
          site_id: site.site_id,
          date: input.date,
          text: input.text,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    ),
  )
}

/**
 * Change an annotation's day, text or both (a parsed `annotationUpdate`); with neither, nothing is
 * written or audited and the annotation is answered as it is.
 * @throws AppError 404 when the id is malformed or names no annotation of this site
 */
export async function updateAnnotation(
  deps: AnnotationCommandDeps,
  site: SiteRow,
  actorUserId: string,
  rawId: unknown,
  update: AnnotationUpdate,
): Promise<Annotation> {
  const id = parseAnnotationId(rawId)
  if (id === null) throw annotationNotFound()
  if (update.date === undefined && update.text === undefined) {
    const row = await deps.db
      .selectFrom('annotation')
      .selectAll()
      .where('site_id', '=', site.site_id)
      .where('annotation_id', '=', id)
      .executeTakeFirst()
    if (!row) throw annotationNotFound()
    return toAnnotation(row)
  }
  return commit(deps, { site, actorUserId, action: 'annotation.updated' }, async (trx) => {
    const row = await trx
      .updateTable('annotation')
      .set({
        ...(update.date !== undefined ? { date: update.date } : {}),
        ...(update.text !== undefined ? { text: update.text } : {}),
        updated_at: isoNow(deps.clock),
      })
      .where('site_id', '=', site.site_id)
      .where('annotation_id', '=', id)
      .returningAll()
      .executeTakeFirst()
    if (!row) throw annotationNotFound()
    return toAnnotation(row)
  })
}

/** Delete an annotation, irreversibly. @throws AppError 404 for an id naming no annotation of this site */
export async function deleteAnnotation(
  deps: AnnotationCommandDeps,
  site: SiteRow,
  actorUserId: string,
  rawId: unknown,
): Promise<void> {
  const id = parseAnnotationId(rawId)
  if (id === null) throw annotationNotFound()
  await commit(deps, { site, actorUserId, action: 'annotation.deleted' }, async (trx) => {
    const row = await trx
      .deleteFrom('annotation')
      .where('site_id', '=', site.site_id)
      .where('annotation_id', '=', id)
      .returningAll()
      .executeTakeFirst()
    if (!row) throw annotationNotFound()
    return toAnnotation(row)
  })
}

/** Run `write` in a transaction with its audit entry (the annotation's id, day and text). */
async function commit(
  deps: AnnotationCommandDeps,
  entry: { site: SiteRow; actorUserId: string; action: AuditAction },
  write: (trx: Transaction<MetadataSchema>) => Promise<Annotation>,
): Promise<Annotation> {
  const { site, actorUserId, action } = entry
  return deps.db.transaction().execute(async (trx) => {
    const written = await write(trx)
    await recordAudit(
      trx,
      {
        organizationId: site.organization_id,
        siteId: site.site_id,
        actorUserId,
        action,
        details: { annotationId: written.id, date: written.date, text: written.text },
      },
      deps.clock,
    )
    return written
  })
}
