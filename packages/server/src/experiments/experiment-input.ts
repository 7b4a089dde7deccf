/**
 * Validation of experiment bodies:
 * - `name`: 1-100 characters after trimming; `description`: at most 1,000 characters after trimming,
 *   optional (null or '' store none).
 * - `key`: a slug `^[a-z0-9][a-z0-9_-]{0,63}$` (uniqueness per site is checked by `experiments.ts`).
 * - `variants`: 2-10 objects `{name, control}`; names 1-64 characters after trimming, unique in the
 *   experiment (exact comparison, as exposures match them exactly); `control` a boolean, false when
 *   omitted; exactly one control.
 * - `goalId`: a positive integer (that it names a goal of the site is checked by `experiments.ts`).
 * - `status`: 'draft' (the default on create), 'running' or 'completed'.
 * Create takes the whole body. Update takes any subset of the fields: those sent replace the stored
 * ones (`variants` as a whole) and the merged experiment is validated again. `goalId` cannot be set to
 * null; a stored null (the goal was deleted) is kept until a new goal is sent.
 * Failures are AppError 400 `Invalid experiment: <field>: <problem>` with `details.fieldErrors` keyed
 * by dotted field path ('variants.1.name').
 */
import { z } from 'zod'
import { invalidBody } from '../shared/invalid-body.js'
import { isNulFree, nulMessage } from '../shared/nul-free.js'
import { type ExperimentStatus, type ExperimentVariant, experimentStatuses } from './experiment.js'

/** Bounds: name and description length, variant count and variant name length (characters). */
export const MAX_EXPERIMENT_NAME = 100
export const MAX_EXPERIMENT_DESCRIPTION = 1000
export const MIN_VARIANTS = 2
export const MAX_VARIANTS = 10
export const MAX_VARIANT_NAME = 64
/** What an experiment key must look like. */
export const EXPERIMENT_KEY_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/

const required = (field: string, what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${field} is required` : `${field} must be ${what}`

const name = z
  .string({ error: required('name', 'a string') })
  .trim()
  .min(1, 'name is required')
  .max(MAX_EXPERIMENT_NAME, `name must be at most ${MAX_EXPERIMENT_NAME} characters`)
  .refine(isNulFree, nulMessage('name'))

const key = z
  .string({ error: required('key', 'a string') })
  .regex(
    EXPERIMENT_KEY_PATTERN,
    'key must be 1-64 lower-case letters, digits, - or _, starting with a letter or digit',
  )

const description = z
  .string({ error: 'description must be a string or null' })
  .trim()
  .max(MAX_EXPERIMENT_DESCRIPTION, `description must be at most ${MAX_EXPERIMENT_DESCRIPTION} characters`)
  .refine(isNulFree, nulMessage('description'))
  .nullable()
  .transform((text) => (text === '' ? null : text))

const variant = z.strictObject(
  {
    name: z
      .string({ error: required('name', 'a string') })
      .trim()
      .min(1, 'name is required')
      .max(MAX_VARIANT_NAME, `name must be at most ${MAX_VARIANT_NAME} characters`),
    control: z.boolean({ error: 'control must be true or false' }).default(false),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? 'a variant takes only name and control'
        : 'each variant must be an object {name, control}',
  },
)

const variants = z
  .array(variant, { error: required('variants', 'an array of {name, control}') })
  .min(MIN_VARIANTS, `variants must hold at least ${MIN_VARIANTS} variants`)
  .max(MAX_VARIANTS, `variants must hold at most ${MAX_VARIANTS} variants`)
  .superRefine((list, ctx) => {
    const seen = new Set<string>()
    for (const [i, v] of list.entries()) {
      if (seen.has(v.name)) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'name'],
          message: `variant names must be unique: ${JSON.stringify(v.name)} appears twice`,
        })
      }
      seen.add(v.name)
    }
    const controls = list.filter((v) => v.control).length
    if (controls !== 1) {
      ctx.addIssue({
        code: 'custom',
        message: `exactly one variant must have control: true (found ${controls})`,
      })
    }
  })

const goalId = z
  .number({ error: required('goalId', 'the id of a goal of this site') })
  .int('goalId must be the id of a goal of this site')
  .min(1, 'goalId must be the id of a goal of this site')
  .max(0x7fffffff, 'goalId must be the id of a goal of this site')

const status = z.enum(experimentStatuses, {
  error: (issue) =>
    issue.input === undefined
      ? 'status is required'
      : `status must be one of ${experimentStatuses.join(', ')}`,
})

const unknownFields = (issue: { code?: string }) =>
  issue.code === 'unrecognized_keys' ? 'unknown fields' : 'the body must be a JSON object'

const fields = { name, key, description, variants, goalId, status }

const createBody = z.strictObject(
  { ...fields, description: description.optional(), status: status.default('draft') },
  { error: unknownFields },
)

const updateBody = z.strictObject(
  {
    name: name.optional(),
    key: key.optional(),
    description: description.optional(),
    variants: variants.optional(),
    goalId: goalId.optional(),
    status: status.optional(),
  },
  { error: unknownFields },
)

const merged = z.strictObject({ ...fields, goalId: goalId.nullable() })

/** A validated experiment: everything but ids and times. */
export interface ExperimentInput {
  name: string
  key: string
  description: string | null
  variants: ExperimentVariant[]
  /** Null only when kept from a stored experiment whose goal was deleted. */
  goalId: number | null
  status: ExperimentStatus
}

/** Validate a create body. @throws AppError 400 (see module comment) */
export function parseExperimentInput(body: unknown): ExperimentInput & { goalId: number } {
  const parsed = createBody.safeParse(body ?? {})
  if (!parsed.success) throw invalidBody('experiment', parsed.error.issues)
  return { ...parsed.data, description: parsed.data.description ?? null }
}

/**
 * Validate an update body against the stored experiment.
 * @param current the stored experiment (other fields it has, such as ids and times, are ignored)
 * @returns the experiment after the update, and the names of the fields the body sent
 * @throws AppError 400 (see module comment)
 */
export function parseExperimentUpdate(
  current: ExperimentInput,
  body: unknown,
): { input: ExperimentInput; changed: (keyof ExperimentInput)[] } {
  const update = updateBody.safeParse(body ?? {})
  if (!update.success) throw invalidBody('experiment', update.error.issues)
  const changed = (Object.keys(update.data) as (keyof ExperimentInput)[]).filter(
    (field) => update.data[field] !== undefined,
  )
  const stored: ExperimentInput = {
    name: current.name,
    key: current.key,
    description: current.description,
    variants: current.variants,
    goalId: current.goalId,
    status: current.status,
  }
  const sent = Object.fromEntries(changed.map((field) => [field, update.data[field]]))
  const parsed = merged.safeParse({ ...stored, ...sent })
  if (!parsed.success) throw invalidBody('experiment', parsed.error.issues)
  return { input: parsed.data, changed }
}
