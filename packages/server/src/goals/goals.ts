/**
 * Goals of a site over the metadata store (SQLite or PostgreSQL): list, find, create, update, delete.
 * Access checks live with the caller (`auth/site-access.ts`); these functions trust the site id they
 * are given and never reach another site's goals (every statement is keyed by site and goal id).
 */
import { notFound } from '../shared/errors.js'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { Goal } from './goal.js'
import { toGoal } from './goal.js'
import { type GoalInput, parseGoalInput, parseGoalUpdate } from './goal-input.js'

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

/** Create a goal. @throws AppError 400 naming what is invalid (see `goal-input.ts`) */
export async function createGoal(
  db: MetadataDb,
  siteId: number,
  body: unknown,
  clock: Clock = systemClock,
): Promise<Goal> {
  const input = parseGoalInput(body)
  const now = isoNow(clock)
  const row = await db
    .insertInto('goal')
    .values({ site_id: siteId, ...toColumns(input), created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow()
  return toGoal(row)
}

/**
 * Update a goal with any subset of `{name, goalType, config}` (see `goal-input.ts`).
 * @throws AppError 404 for an unknown goal; 400 when the result is not a valid goal
 */
export async function updateGoal(
  db: MetadataDb,
  siteId: number,
  rawGoalId: unknown,
  body: unknown,
  clock: Clock = systemClock,
): Promise<Goal> {
  const current = await findGoal(db, siteId, rawGoalId)
  const input = parseGoalUpdate(current, body)
  const row = await db
    .updateTable('goal')
    .set({ ...toColumns(input), updated_at: isoNow(clock) })
    .where('site_id', '=', siteId)
    .where('goal_id', '=', current.goalId)
    .returningAll()
    .executeTakeFirst()
  if (!row) throw goalNotFound()
  return toGoal(row)
}

/** Delete a goal, irreversibly. @throws AppError 404 for an unknown goal */
export async function deleteGoal(db: MetadataDb, siteId: number, rawGoalId: unknown): Promise<void> {
  const goalId = parseGoalId(rawGoalId)
  if (goalId === null) throw goalNotFound()
  const result = await db
    .deleteFrom('goal')
    .where('site_id', '=', siteId)
    .where('goal_id', '=', goalId)
    .executeTakeFirst()
  if (Number(result.numDeletedRows) === 0) throw goalNotFound()
}

function toColumns(input: GoalInput) {
  return { name: input.name, goal_type: input.goalType, config: JSON.stringify(input.config) }
}
