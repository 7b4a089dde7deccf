/**
 * Experiments of a site over the metadata store (SQLite or PostgreSQL): list, find, create, update,
 * delete. Access checks live with the caller (`auth/site-access.ts`); these functions trust the site id
 * they are given and never reach another site's experiments or goals (every statement is keyed by
 * site). Validation of bodies: `experiment-input.ts`; here, what needs the store: the goal must be a
 * goal of the same site, and the key unique on the site. Each write is audited (`experiment.created`,
 * `experiment.updated`, `experiment.deleted`) in its transaction; nothing caches experiments, so there
 * is no change to announce.
 */
import type { CreateExperimentBody, UpdateExperimentBody } from '@pathlight/protocol'
import type { Transaction } from 'kysely'
import { type AuditAction, recordAudit } from '../audit/audit-log.js'
import type { Goal } from '../goals/goal.js'
import { toGoal } from '../goals/goal.js'
import { badRequest, conflict, notFound } from '../shared/errors.js'
import { type Clock, isoNow } from '../shared/time.js'
import type { SiteRow } from '../sites/site.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { MetadataSchema } from '../storage/metadata/schema.js'
import { type Experiment, toExperiment } from './experiment.js'
import { applyExperimentUpdate, type ExperimentInput, toExperimentInput } from './experiment-input.js'

/** The 404 for an experiment id that names no experiment of the site. */
export const experimentNotFound = () => notFound('Experiment not found')

/** An `{experimentId}` path segment as an id, or null when it is not a positive 32-bit integer. */
export function parseExperimentId(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN
  return Number.isSafeInteger(n) && n > 0 && n <= 0x7fffffff ? n : null
}

/** A site's experiments, oldest first (by id). @param page rows to skip and return; all when omitted */
export async function listExperiments(
  db: MetadataDb,
  siteId: number,
  page?: { offset: number; limit: number },
): Promise<Experiment[]> {
  let query = db.selectFrom('experiment').selectAll().where('site_id', '=', siteId).orderBy('experiment_id')
  if (page) query = query.limit(page.limit).offset(page.offset)
  return (await query.execute()).map(toExperiment)
}

/** How many experiments the site has (for a paged list's `meta.total`). */
export async function countExperiments(db: MetadataDb, siteId: number): Promise<number> {
  const row = await db
    .selectFrom('experiment')
    .select((eb) => eb.fn.countAll().as('total'))
    .where('site_id', '=', siteId)
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

/** One experiment of a site. @throws AppError 404 when the id is malformed or names none of this site */
export async function findExperiment(db: MetadataDb, siteId: number, rawId: unknown): Promise<Experiment> {
  const experimentId = parseExperimentId(rawId)
  const row =
    experimentId === null
      ? undefined
      : await db
          .selectFrom('experiment')
          .selectAll()
          .where('site_id', '=', siteId)
          .where('experiment_id', '=', experimentId)
          .executeTakeFirst()
  if (!row) throw experimentNotFound()
  return toExperiment(row)
}

/** The goal of a site with this id, or null when there is none (deleted, or another site's). */
export async function goalOfSite(db: MetadataDb, siteId: number, goalId: number): Promise<Goal | null> {
  const row = await db
    .selectFrom('goal')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('goal_id', '=', goalId)
    .executeTakeFirst()
  return row ? toGoal(row) : null
}

/** What the experiment commands need: the store and the clock for createdAt/updatedAt (default system). */
export interface ExperimentCommandDeps {
  db: MetadataDb
  clock?: Clock
}

/**
 * Create an experiment of `site` on behalf of `actorUserId` from a parsed body (status 'draft' unless
 * the body says otherwise).
 * @throws AppError 400 naming `goalId` when it names no goal of this site; 409 when the site already
 *   has an experiment with this key
 */
export async function createExperiment(
  deps: ExperimentCommandDeps,
  site: SiteRow,
  actorUserId: string,
  body: CreateExperimentBody,
): Promise<Experiment> {
  const input = toExperimentInput(body)
  await checkGoal(deps.db, site.site_id, input.goalId)
  await checkKeyFree(deps.db, site.site_id, input.key)
  const now = isoNow(deps.clock)
  return deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('experiment')
      .values({ site_id: site.site_id, ...toColumns(input), created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow()
      .catch(rethrowDuplicateKey(input.key))
    const experiment = toExperiment(row)
    await audit(trx, site, actorUserId, 'experiment.created', experiment, { status: experiment.status })
    return experiment
  })
}

/**
 * Update `current`, an experiment of `site` (`findExperiment`), with a parsed change of any subset of
 * its fields (see `experiment-input.ts`).
 * @returns the experiment after the update, and the fields the body sent
 * @throws AppError 404 when the experiment is gone; 400 when the result is not valid; 409 for a key taken
 */
export async function updateExperiment(
  deps: ExperimentCommandDeps,
  site: SiteRow,
  actorUserId: string,
  current: Experiment,
  body: UpdateExperimentBody,
): Promise<{ experiment: Experiment; changed: (keyof ExperimentInput)[] }> {
  const siteId = site.site_id
  const { input, changed } = applyExperimentUpdate(current, body)
  if (changed.includes('goalId') && input.goalId !== null) await checkGoal(deps.db, siteId, input.goalId)
  if (input.key !== current.key) await checkKeyFree(deps.db, siteId, input.key)
  return deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('experiment')
      .set({ ...toColumns(input), updated_at: isoNow(deps.clock) })
      .where('site_id', '=', siteId)
      .where('experiment_id', '=', current.experimentId)
      .returningAll()
      .executeTakeFirst()
      .catch(rethrowDuplicateKey(input.key))
    if (!row) throw experimentNotFound()
    const experiment = toExperiment(row)
    await audit(trx, site, actorUserId, 'experiment.updated', experiment, {
      changed,
      status: experiment.status,
    })
    return { experiment, changed }
  })
}

/** Delete an experiment, irreversibly. @throws AppError 404 for an unknown experiment */
export async function deleteExperiment(
  deps: ExperimentCommandDeps,
  site: SiteRow,
  actorUserId: string,
  rawId: unknown,
): Promise<Experiment> {
  const experiment = await findExperiment(deps.db, site.site_id, rawId)
  await deps.db.transaction().execute(async (trx) => {
    const result = await trx
      .deleteFrom('experiment')
      .where('site_id', '=', site.site_id)
      .where('experiment_id', '=', experiment.experimentId)
      .executeTakeFirst()
    if (Number(result.numDeletedRows) === 0) throw experimentNotFound()
    await audit(trx, site, actorUserId, 'experiment.deleted', experiment)
  })
  return experiment
}

function audit(
  trx: Transaction<MetadataSchema>,
  site: SiteRow,
  actorUserId: string,
  action: AuditAction,
  experiment: Experiment,
  extra: Record<string, unknown> = {},
) {
  return recordAudit(trx, {
    organizationId: site.organization_id,
    siteId: site.site_id,
    actorUserId,
    action,
    details: { experimentId: experiment.experimentId, key: experiment.key, name: experiment.name, ...extra },
  })
}

async function checkGoal(db: MetadataDb, siteId: number, goalId: number): Promise<void> {
  if ((await goalOfSite(db, siteId, goalId)) !== null) return
  const message = `goalId ${goalId} is not a goal of this site`
  throw badRequest(`Invalid experiment: goalId: ${message}`, {
    fieldErrors: { goalId: [message] },
    formErrors: [],
  })
}

function keyTaken(key: string) {
  return conflict(
    `Invalid experiment: key: this site already has an experiment with key ${JSON.stringify(key)}`,
  )
}

async function checkKeyFree(db: MetadataDb, siteId: number, key: string): Promise<void> {
  const row = await db
    .selectFrom('experiment')
    .select('experiment_id')
    .where('site_id', '=', siteId)
    .where('experiment_key', '=', key)
    .executeTakeFirst()
  if (row) throw keyTaken(key)
}

/** Two concurrent writes of one key: the unique index refuses the second (SQLite or PostgreSQL code). */
function rethrowDuplicateKey(key: string) {
  return (error: unknown): never => {
    const code = (error as { code?: unknown } | null)?.code
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505') throw keyTaken(key)
    throw error
  }
}

function toColumns(input: ExperimentInput) {
  return {
    experiment_key: input.key,
    name: input.name,
    description: input.description,
    variants: JSON.stringify(input.variants.map((v) => ({ name: v.name, control: v.control }))),
    goal_id: input.goalId,
    status: input.status,
  }
}
