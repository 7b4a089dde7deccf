/**
 * Goals of a site over the metadata store (SQLite or PostgreSQL): list, find, create, update, delete.
 * Access checks live with the caller (`auth/site-access.ts`); these functions trust the site id they
 * are given and never reach another site's goals (every statement is keyed by site and goal id).
 * Each write is audited (`goal.created`, `goal.updated`, `goal.deleted`) in its transaction and
 * announced as a change of the site's goals.
 */
import type { Transaction } from 'kysely'
import { type AuditAction, recordAudit } from '../audit/audit-log.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { notFound } from '../shared/errors.js'
import { type Clock, isoNow } from '../shared/time.js'
import type { SiteRow } from '../sites/site.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { MetadataSchema } from '../storage/metadata/schema.js'
import type { Goal } from './goal.js'
import { toGoal } from './goal.js'
import { type GoalInput, type GoalUpdate, parseGoalUpdate } from './goal-input.js'

/** The 404 for a goal id that names no goal of the site. */
export const goalNotFound = () => notFound('Goal not found')

/** A `{goalId}` path segment as a goal id, or null when it is not a positive 32-bit integer. */
export function parseGoalId(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN
  return Number.isSafeInteger(n) && n > 0 && n <= 0x7fffffff ? n : null
}

/**
 * A page of a site's goals, oldest first (by goal id), and how many it has in all.
 * @param page.offset rows to skip; page.limit rows to return
 */
export async function listGoals(
  db: MetadataDb,
  siteId: number,
  page: { offset: number; limit: number },
): Promise<{ goals: Goal[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('goal')
      .selectAll()
      .where('site_id', '=', siteId)
      .orderBy('goal_id')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('goal')
      .select((eb) => eb.fn.countAll().as('total'))
      .where('site_id', '=', siteId)
      .executeTakeFirstOrThrow(),
  ])
  return { goals: rows.map(toGoal), total: Number(count.total) }
}

/** One goal of a site. @throws AppError 404 when the id is malformed or names no goal of this site */
export async function findGoal(db: MetadataDb, siteId: number, rawGoalId: unknown): Promise<Goal> {
  const goalId = parseGoalId(rawGoalId)
  const row =
    goalId === null
      ? undefined
      : await db
          .selectFrom('goal')
          .selectAll()
          .where('site_id', '=', siteId)
          .where('goal_id', '=', goalId)
          .executeTakeFirst()
  if (!row) throw goalNotFound()
  return toGoal(row)
}

/** What the goal commands need: the store, where to announce changes, and the clock (default system). */
export interface GoalCommandDeps {
  db: MetadataDb
  changes: ChangeFeed
  clock?: Clock
}

/** Create a goal of `site` on behalf of `actorUserId` from a parsed body (the protocol's `goalInput`). */
export async function createGoal(
  deps: GoalCommandDeps,
  site: SiteRow,
  actorUserId: string,
  input: GoalInput,
): Promise<Goal> {
  const now = isoNow(deps.clock)
  const write = async (trx: Transaction<MetadataSchema>) =>
    toGoal(
      await trx
        .insertInto('goal')
        .values({ site_id: site.site_id, ...toColumns(input), created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow(),
    )
  return commit(deps, { site, actorUserId, action: 'goal.created' }, write, goalDetails)
}

/**
 * Update a goal with any subset of `{name, goalType, config}` (see `goal-input.ts`).
 * @param current the stored goal (`findGoal`)
 * @throws AppError 400 when the result is not a valid goal; 404 when the goal is gone meanwhile
 */
export async function updateGoal(
  deps: GoalCommandDeps,
  site: SiteRow,
  actorUserId: string,
  current: Goal,
  update: GoalUpdate,
): Promise<Goal> {
  const input = parseGoalUpdate(current, update)
  const write = async (trx: Transaction<MetadataSchema>) => {
    const row = await trx
      .updateTable('goal')
      .set({ ...toColumns(input), updated_at: isoNow(deps.clock) })
      .where('site_id', '=', site.site_id)
      .where('goal_id', '=', current.goalId)
      .returningAll()
      .executeTakeFirst()
    if (!row) throw goalNotFound()
    return toGoal(row)
  }
  return commit(deps, { site, actorUserId, action: 'goal.updated' }, write, goalDetails)
}

/** Delete a goal of `site` on behalf of `actorUserId`, irreversibly. @throws AppError 404 for an unknown goal */
export async function deleteGoal(
  deps: GoalCommandDeps,
  site: SiteRow,
  actorUserId: string,
  rawGoalId: unknown,
) {
  const goalId = parseGoalId(rawGoalId)
  if (goalId === null) throw goalNotFound()
  const write = async (trx: Transaction<MetadataSchema>) => {
    const result = await trx
      .deleteFrom('goal')
      .where('site_id', '=', site.site_id)
      .where('goal_id', '=', goalId)
      .executeTakeFirst()
    if (Number(result.numDeletedRows) === 0) throw goalNotFound()
  }
  await commit(deps, { site, actorUserId, action: 'goal.deleted' }, write, () => ({ goalId }))
}

/**
 * Run `write` in a transaction with its audit entry (`details` of what it returns), then announce that
 * the site's goals changed.
 */
async function commit<T>(
  deps: GoalCommandDeps,
  entry: { site: SiteRow; actorUserId: string; action: AuditAction },
  write: (trx: Transaction<MetadataSchema>) => Promise<T>,
  details: (result: T) => Record<string, unknown>,
): Promise<T> {
  const { site, actorUserId, action } = entry
  const result = await deps.db.transaction().execute(async (trx) => {
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
  await deps.changes.announce({ kind: 'goals', siteId: site.site_id })
  return result
}

const goalDetails = (goal: Goal) => ({
  goalId: goal.goalId,
  name: goal.name,
  goalType: goal.goalType,
  config: goal.config,
})

function toColumns(input: GoalInput) {
  return { name: input.name, goal_type: input.goalType, config: JSON.stringify(input.config) }
}
