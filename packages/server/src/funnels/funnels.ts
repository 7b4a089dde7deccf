/**
 * Saved funnels of a site over the metadata store (SQLite or PostgreSQL): list, find, create, update,
 * delete. Access checks live with the caller (`auth/site-access.ts`); these functions trust the site id
 * they are given and never reach another site's funnels (every statement is keyed by site and funnel
 * id). Each write is audited (`funnel.created`, `funnel.updated`, `funnel.deleted`) in its transaction;
 * nothing caches funnels, so there is no change to announce. A site's funnels go with the site
 * (ON DELETE CASCADE, migration 008).
 */
import type { CreateFunnelBody, UpdateFunnelBody } from '@pathlight/protocol'
import type { Transaction } from 'kysely'
import { type AuditAction, recordAudit } from '../audit/audit-log.js'
import { notFound } from '../shared/errors.js'
import { type Clock, isoNow } from '../shared/time.js'
import type { SiteRow } from '../sites/site.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { MetadataSchema } from '../storage/metadata/schema.js'
import { type Funnel, toFunnel } from './funnel.js'
import { applyFunnelUpdate, type FunnelInput, toFunnelInput } from './funnel-input.js'

/** The 404 for a funnel id that names no funnel of the site. */
export const funnelNotFound = () => notFound('Funnel not found')

/** A `{funnelId}` path segment as an id, or null when it is not a positive 32-bit integer. */
export function parseFunnelId(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN
  return Number.isSafeInteger(n) && n > 0 && n <= 0x7fffffff ? n : null
}

/** A site's funnels, oldest first (by id). @param page rows to skip and return; all when omitted */
export async function listFunnels(
  db: MetadataDb,
  siteId: number,
  page?: { offset: number; limit: number },
): Promise<Funnel[]> {
  let query = db.selectFrom('funnel').selectAll().where('site_id', '=', siteId).orderBy('funnel_id')
  if (page) query = query.limit(page.limit).offset(page.offset)
  return (await query.execute()).map(toFunnel)
}

/** How many funnels the site has (for a paged list's `meta.total`). */
export async function countFunnels(db: MetadataDb, siteId: number): Promise<number> {
  const row = await db
    .selectFrom('funnel')
    .select((eb) => eb.fn.countAll().as('total'))
    .where('site_id', '=', siteId)
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

/** One funnel of a site. @throws AppError 404 when the id is malformed or names none of this site */
export async function findFunnel(db: MetadataDb, siteId: number, rawFunnelId: unknown): Promise<Funnel> {
  const funnelId = parseFunnelId(rawFunnelId)
  const row =
    funnelId === null
      ? undefined
      : await db
          .selectFrom('funnel')
          .selectAll()
          .where('site_id', '=', siteId)
          .where('funnel_id', '=', funnelId)
          .executeTakeFirst()
  if (!row) throw funnelNotFound()
  return toFunnel(row)
}

/** What the funnel commands need: the store and the clock for createdAt/updatedAt (default system). */
export interface FunnelCommandDeps {
  db: MetadataDb
  clock?: Clock
}

/** Create a funnel of `site` on behalf of `actorUserId` from a parsed body. */
export async function createFunnel(
  deps: FunnelCommandDeps,
  site: SiteRow,
  actorUserId: string,
  body: CreateFunnelBody,
): Promise<Funnel> {
  const input = toFunnelInput(body)
  const now = isoNow(deps.clock)
  const write = async (trx: Transaction<MetadataSchema>) =>
    toFunnel(
      await trx
        .insertInto('funnel')
        .values({ site_id: site.site_id, ...toColumns(input), created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow(),
    )
  return commit(deps, { site, actorUserId, action: 'funnel.created' }, write, funnelDetails)
}

/**
 * Update `current`, a funnel of `site` (`findFunnel`), with a parsed change of any subset of
 * `{name, steps}` (`steps` replaced whole). @throws AppError 404 when the funnel is gone
 */
export async function updateFunnel(
  deps: FunnelCommandDeps,
  site: SiteRow,
  actorUserId: string,
  current: Funnel,
  body: UpdateFunnelBody,
): Promise<Funnel> {
  const input = applyFunnelUpdate(current, body)
  const write = async (trx: Transaction<MetadataSchema>) => {
    const row = await trx
      .updateTable('funnel')
      .set({ ...toColumns(input), updated_at: isoNow(deps.clock) })
      .where('site_id', '=', site.site_id)
      .where('funnel_id', '=', current.funnelId)
      .returningAll()
      .executeTakeFirst()
    if (!row) throw funnelNotFound()
    return toFunnel(row)
  }
  return commit(deps, { site, actorUserId, action: 'funnel.updated' }, write, funnelDetails)
}

/** Delete a funnel of `site` on behalf of `actorUserId`. @throws AppError 404 for an unknown funnel */
export async function deleteFunnel(
  deps: FunnelCommandDeps,
  site: SiteRow,
  actorUserId: string,
  rawFunnelId: unknown,
): Promise<void> {
  const funnelId = parseFunnelId(rawFunnelId)
  if (funnelId === null) throw funnelNotFound()
  const write = async (trx: Transaction<MetadataSchema>) => {
    const result = await trx
      .deleteFrom('funnel')
      .where('site_id', '=', site.site_id)
      .where('funnel_id', '=', funnelId)
      .executeTakeFirst()
    if (Number(result.numDeletedRows) === 0) throw funnelNotFound()
  }
  await commit(deps, { site, actorUserId, action: 'funnel.deleted' }, write, () => ({ funnelId }))
}

/** Run `write` in a transaction with its audit entry (`details` of what it returns). */
async function commit<T>(
  deps: FunnelCommandDeps,
  entry: { site: SiteRow; actorUserId: string; action: AuditAction },
  write: (trx: Transaction<MetadataSchema>) => Promise<T>,
  details: (result: T) => Record<string, unknown>,
): Promise<T> {
  const { site, actorUserId, action } = entry
  return deps.db.transaction().execute(async (trx) => {
    const written = await write(trx)
    await recordAudit(trx, {
      organizationId: site.organization_id,
      siteId: site.site_id,
      actorUserId,
      action,
      details: details(written),
    })
    return written
  })
}

const funnelDetails = (funnel: Funnel) => ({
  funnelId: funnel.funnelId,
  name: funnel.name,
  steps: funnel.steps,
})

function toColumns(input: FunnelInput) {
  return { name: input.name, steps: JSON.stringify(input.steps) }
}
