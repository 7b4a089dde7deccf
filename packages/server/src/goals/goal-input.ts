/**
 * Validation of goal bodies (the spec leaves bounds open; these are ours):
 * - `name`: 1-100 characters after trimming.
 * - `goalType`: 'path' or 'event'; `config` must have that type's shape and nothing else.
 * - path: `pathPattern` 1-2,048 characters, starting with '/', with '*' only as the last character.
 * - event: `eventName` 1-256 characters; `eventPropertyKey` 1-256 characters and
 *   `eventPropertyValue` (string of at most 256 characters, or a finite number) both or neither.
 * Create takes the whole body. Update takes any subset of `{name, goalType, config}`: the fields sent
 * replace the stored ones (`config` as a whole, never merged key by key) and the result must be a
 * valid goal, so changing `goalType` needs a `config` of the new type.
 * Failures are AppError 400 `Invalid goal: <field>: <problem>` with `details.fieldErrors` keyed by
 * dotted field path ('config.pathPattern').
 */
import { z } from 'zod'
import { invalidBody } from '../shared/invalid-body.js'
import { isNulFree, nulMessage } from '../shared/nul-free.js'
import type { GoalDefinition } from './goal.js'

/** Bounds in characters: goal name, path pattern, event name / property key / string value. */
export const MAX_GOAL_NAME = 100
export const MAX_PATH_PATTERN = 2048
export const MAX_EVENT_FIELD = 256

const required = (field: string, what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${field} is required` : `${field} must be ${what}`

const name = z
  .string({ error: required('name', 'a string') })
  .trim()
  .min(1, 'name is required')
  .max(MAX_GOAL_NAME, `name must be at most ${MAX_GOAL_NAME} characters`)
  .refine(isNulFree, nulMessage('name'))

const configError = (only: string) => (issue: { code?: string; input?: unknown }) =>
  issue.code === 'unrecognized_keys'
    ? only
    : issue.input === undefined
      ? 'config is required'
      : 'config must be an object'

/** A path pattern: starts with '/', '*' only as its last character (shared with funnel steps). */
export const pathPatternField = z
  .string({ error: required('pathPattern', 'a string') })
  .trim()
  .min(1, 'pathPattern is required')
  .max(MAX_PATH_PATTERN, `pathPattern must be at most ${MAX_PATH_PATTERN} characters`)
  .refine((p) => p.startsWith('/'), "pathPattern must start with '/'")
  .refine(
    (p) => !p.slice(0, -1).includes('*'),
    "pathPattern may hold '*' only as its last character (prefix match)",
  )

const pathConfig = z.strictObject(
  { pathPattern: pathPatternField },
  { error: configError("a path goal's config takes only pathPattern") },
)

/** The fields of an event condition (shared with funnel steps); `eventPropertyKey`/`Value` go together. */
export const eventConditionFields = {
  eventName: z
    .string({ error: required('eventName', 'a string') })
    .trim()
    .min(1, 'eventName is required')
    .max(MAX_EVENT_FIELD, `eventName must be at most ${MAX_EVENT_FIELD} characters`),
  eventPropertyKey: z
    .string({ error: 'eventPropertyKey must be a string' })
    .trim()
    .min(1, 'eventPropertyKey must not be empty')
    .max(MAX_EVENT_FIELD, `eventPropertyKey must be at most ${MAX_EVENT_FIELD} characters`)
    .optional(),
  eventPropertyValue: z
    .unknown()
    .transform((value, ctx) => {
      if (value === undefined) return undefined
      if (typeof value === 'string' && value.length <= MAX_EVENT_FIELD) return value
      if (typeof value === 'number' && Number.isFinite(value)) return value
      ctx.addIssue({
        code: 'custom',
        message:
          typeof value === 'string'
            ? `eventPropertyValue must be at most ${MAX_EVENT_FIELD} characters`
            : 'eventPropertyValue must be a string or a finite number',
      })
      return z.NEVER
    })
    .optional(),
}

/** Adds the issue of a property key without a value or a value without a key. */
export function checkPropertyPair(
  config: { eventPropertyKey?: string; eventPropertyValue?: unknown },
  ctx: z.RefinementCtx,
): void {
  if ((config.eventPropertyKey === undefined) !== (config.eventPropertyValue === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: [config.eventPropertyKey === undefined ? 'eventPropertyKey' : 'eventPropertyValue'],
      message: 'eventPropertyKey and eventPropertyValue go together: give both or neither',
    })
  }
}

const eventConfig = z
  .strictObject(eventConditionFields, {
    error: configError(
      "an event goal's config takes only eventName, eventPropertyKey and eventPropertyValue",
    ),
  })
  .superRefine(checkPropertyPair)

const goalType = z.enum(['path', 'event'], {
  error: (issue) =>
    issue.input === undefined ? 'goalType is required' : "goalType must be 'path' or 'event'",
})

const unknownFields = (issue: { code?: string }) =>
  issue.code === 'unrecognized_keys' ? 'unknown fields' : 'the body must be a JSON object'

const goalBody = z
  .strictObject({ name, goalType, config: z.unknown().optional() }, { error: unknownFields })
  .superRefine((body, ctx) => {
    const schema = body.goalType === 'path' ? pathConfig : eventConfig
    const parsed = schema.safeParse(body.config)
    if (parsed.success) return
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ ...issue, path: ['config', ...issue.path], message: issue.message } as never)
    }
  })

const goalUpdate = z.strictObject(
  { name: name.optional(), goalType: goalType.optional(), config: z.unknown().optional() },
  { error: unknownFields },
)

/** A validated goal: its name and definition. */
export type GoalInput = { name: string } & GoalDefinition

/** Validate a create body. @throws AppError 400 (see module comment) */
export function parseGoalInput(body: unknown): GoalInput {
  const parsed = goalBody.safeParse(body ?? {})
  if (!parsed.success) throw invalidGoal(parsed.error)
  return normalize(parsed.data.name, parsed.data.goalType, parsed.data.config)
}

/**
 * Validate an update body against the stored goal.
 * @param current the stored goal's name and definition
 * @returns the goal after the update
 * @throws AppError 400 (see module comment)
 */
export function parseGoalUpdate(current: GoalInput, body: unknown): GoalInput {
  const update = goalUpdate.safeParse(body ?? {})
  if (!update.success) throw invalidGoal(update.error)
  const merged = {
    name: update.data.name ?? current.name,
    goalType: update.data.goalType ?? current.goalType,
    config: update.data.config === undefined ? current.config : update.data.config,
  }
  const parsed = goalBody.safeParse(merged)
  if (!parsed.success) {
    const changedType = update.data.goalType !== undefined && update.data.config === undefined
    throw invalidGoal(parsed.error, changedType ? ' (send a config of the new goalType with it)' : '')
  }
  return normalize(parsed.data.name, parsed.data.goalType, parsed.data.config)
}

/** The parsed config of the right type (the superRefine above guarantees it parses). */
function normalize(goalName: string, type: 'path' | 'event', config: unknown): GoalInput {
  if (type === 'path') return { name: goalName, goalType: 'path', config: pathConfig.parse(config) }
  const event = eventConfig.parse(config)
  return {
    name: goalName,
    goalType: 'event',
    config: {
      eventName: event.eventName,
      ...(event.eventPropertyKey === undefined ? {} : { eventPropertyKey: event.eventPropertyKey }),
      ...(event.eventPropertyValue === undefined ? {} : { eventPropertyValue: event.eventPropertyValue }),
    },
  }
}

/** A goalType/config mismatch shows best as the config's foreign keys: those issues come first. */
function invalidGoal(error: z.ZodError, hint = '') {
  const issues = [...error.issues].sort(
    (a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'),
  )
  return invalidBody('goal', issues, hint)
}
