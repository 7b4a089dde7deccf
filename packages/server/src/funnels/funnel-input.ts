/**
 * Validation of funnel bodies (bounds are ours):
 * - `name`: 1-100 characters after trimming.
 * - `steps`: 2 to 10 steps, each `{type: 'path', pathPattern, name?}` or
 *   `{type: 'event', eventName, eventPropertyKey?, eventPropertyValue?, name?}` with the same rules as
 *   goal configs (`goals/goal-input.ts`); a step `name` is 1-100 characters after trimming.
 * Create takes `{name, steps}`; update any subset of them (`steps` replaced whole). The ad-hoc query
 * takes `{steps}` alone (`parseFunnelSteps`).
 * Failures are AppError 400 `Invalid funnel: <field>: <problem>` with `details.fieldErrors` keyed by
 * dotted field path, steps by 0-based index ('steps.1.pathPattern').
 */
import { z } from 'zod'
import {
  checkPropertyPair,
  eventConditionFields,
  MAX_GOAL_NAME,
  pathPatternField,
} from '../goals/goal-input.js'
import { invalidBody } from '../shared/invalid-body.js'
import { isNulFree, nulMessage } from '../shared/nul-free.js'
import { type FunnelStep, MAX_FUNNEL_STEPS, MIN_FUNNEL_STEPS } from './funnel.js'

/** Bound in characters of a funnel's and a step's name. */
export const MAX_FUNNEL_NAME = MAX_GOAL_NAME

const nameOf = (field: string) =>
  z
    .string({
      error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`),
    })
    .trim()
    .min(1, `${field} must not be empty`)
    .max(MAX_FUNNEL_NAME, `${field} must be at most ${MAX_FUNNEL_NAME} characters`)
    .refine(isNulFree, nulMessage(field))

const onlyKeys = (keys: string) => (issue: { code?: string; input?: unknown }) =>
  issue.code === 'unrecognized_keys' ? `a step of this type takes only ${keys}` : 'a step must be an object'

const pathStep = z.strictObject(
  { type: z.literal('path'), name: nameOf('name').optional(), pathPattern: pathPatternField },
  { error: onlyKeys('type, name and pathPattern') },
)

const eventStep = z
  .strictObject(
    { type: z.literal('event'), name: nameOf('name').optional(), ...eventConditionFields },
    { error: onlyKeys('type, name, eventName, eventPropertyKey and eventPropertyValue') },
  )
  .superRefine(checkPropertyPair)

const step = z.discriminatedUnion('type', [pathStep, eventStep], {
  error: (issue) =>
    issue.code === 'invalid_union' && typeof issue.input === 'object' && issue.input !== null
      ? "type must be 'path' or 'event'"
      : 'a step must be an object',
})

const steps = z
  .array(step, {
    error: (issue) => (issue.input === undefined ? 'steps is required' : 'steps must be an array'),
  })
  .min(MIN_FUNNEL_STEPS, `a funnel has at least ${MIN_FUNNEL_STEPS} steps`)
  .max(MAX_FUNNEL_STEPS, `a funnel has at most ${MAX_FUNNEL_STEPS} steps`)

const unknownFields = (issue: { code?: string }) =>
  issue.code === 'unrecognized_keys' ? 'unknown fields' : 'the body must be a JSON object'

const funnelBody = z.strictObject({ name: nameOf('name'), steps }, { error: unknownFields })
const funnelUpdate = z.strictObject(
  { name: nameOf('name').optional(), steps: steps.optional() },
  { error: unknownFields },
)
const queryBody = z.strictObject({ steps }, { error: unknownFields })

/** A validated funnel: its name and steps. */
export interface FunnelInput {
  name: string
  steps: FunnelStep[]
}

/** Validate a create body. @throws AppError 400 (see module comment) */
export function parseFunnelInput(body: unknown): FunnelInput {
  const parsed = funnelBody.safeParse(body ?? {})
  if (!parsed.success) throw invalidBody('funnel', parsed.error.issues)
  return { name: parsed.data.name, steps: parsed.data.steps.map(normalize) }
}

/** Validate an update body; @returns the funnel after it. @throws AppError 400 (see module comment) */
export function parseFunnelUpdate(current: FunnelInput, body: unknown): FunnelInput {
  const parsed = funnelUpdate.safeParse(body ?? {})
  if (!parsed.success) throw invalidBody('funnel', parsed.error.issues)
  return {
    name: parsed.data.name ?? current.name,
    steps: parsed.data.steps?.map(normalize) ?? current.steps,
  }
}

/** Validate the body of an ad-hoc funnel query, `{steps}`. @throws AppError 400 (see module comment) */
export function parseFunnelSteps(body: unknown): FunnelStep[] {
  const parsed = queryBody.safeParse(body ?? {})
  if (!parsed.success) throw invalidBody('funnel', parsed.error.issues)
  return parsed.data.steps.map(normalize)
}

/** The step with its optional fields present only when given (what is stored and answered). */
function normalize(input: z.infer<typeof step>): FunnelStep {
  const name = input.name === undefined ? {} : { name: input.name }
  if (input.type === 'path') return { type: 'path', ...name, pathPattern: input.pathPattern }
  return {
    type: 'event',
    ...name,
    eventName: input.eventName,
    ...(input.eventPropertyKey === undefined ? {} : { eventPropertyKey: input.eventPropertyKey }),
    ...(input.eventPropertyValue === undefined ? {} : { eventPropertyValue: input.eventPropertyValue }),
  }
}
