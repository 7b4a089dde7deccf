/**
 * Goal bodies: the create body and the update body are the protocol's (`goalInput`, `goalUpdate`:
 * bounds and messages there), parsed by the route. What is left here needs the stored goal: an update
 * takes any subset of `{name, goalType, config}`, the fields sent replace the stored ones (`config` as
 * a whole, never merged key by key) and the result must be a valid goal, so changing `goalType` needs
 * a `config` of the new type. Failures are AppError 400 `Invalid goal: <field>: <problem>` with
 * `details.fieldErrors` keyed by dotted field path ('config.pathPattern').
 */
import { goalInput, type goalUpdate, type ParsedGoal } from '@pathlight/protocol'
import type { z } from 'zod'
import { invalidBody } from '../shared/invalid-body.js'

/** Bounds and field schemas the funnel steps share with goals (the protocol's). */
export {
  checkPropertyPair,
  eventConditionFields,
  MAX_EVENT_FIELD,
  MAX_GOAL_NAME,
  MAX_PATH_PATTERN,
  pathPatternField,
} from '@pathlight/protocol'

/** A validated goal: its name and definition. */
export type GoalInput = ParsedGoal

/** A parsed update body: any subset of `{name, goalType, config}` (config not yet checked). */
export type GoalUpdate = z.output<typeof goalUpdate>

/**
 * Apply a parsed update body to the stored goal and check the result.
 * @param current the stored goal's name and definition
 * @returns the goal after the update
 * @throws AppError 400 (see module comment)
 */
export function parseGoalUpdate(current: GoalInput, update: GoalUpdate): GoalInput {
  const merged = {
    name: update.name ?? current.name,
    goalType: update.goalType ?? current.goalType,
    config: update.config === undefined ? current.config : update.config,
  }
  const parsed = goalInput.safeParse(merged)
  if (parsed.success) return parsed.data
  const changedType = update.goalType !== undefined && update.config === undefined
  throw invalidGoal(parsed.error, changedType ? ' (send a config of the new goalType with it)' : '')
}

/** A goalType/config mismatch shows best as the config's foreign keys: those issues come first. */
function invalidGoal(error: z.ZodError, hint = '') {
  const issues = [...error.issues].sort(
    (a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'),
  )
  return invalidBody('goal', issues, hint)
}
