/**
 * The bodies that create and change an A/B experiment, with the messages a 400 names the field by:
 * - `name`: 1-100 characters after trimming; `description`: at most 1,000 characters after trimming,
 *   optional (null or '' store none).
 * - `key`: a slug `^[a-z0-9][a-z0-9_-]{0,63}$` (uniqueness per site is the server's check).
 * - `variants`: 2-10 objects `{name, control}`; names 1-64 characters after trimming, unique in the
 *   experiment (exact comparison, as exposures match them exactly); `control` a boolean, false when
 *   omitted; exactly one control.
 * - `goalId`: a positive integer (that it names a goal of the site is the server's check).
 * - `status`: 'draft' (the default on create), 'running' or 'completed'.
 */
import { z } from 'zod'
import { experimentStatuses } from './enums.js'
import { isNulFree, nulMessage } from './nul-free.js'
import { doc } from './openapi-registry.js'

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

const key = doc(
  z
    .string({ error: required('key', 'a string') })
    .regex(
      EXPERIMENT_KEY_PATTERN,
      'key must be 1-64 lower-case letters, digits, - or _, starting with a letter or digit',
    ),
  'Unique on the site; exposure events carry it',
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

const variants = doc(
  z
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
    }),
  'Names unique; exactly one with `control: true`',
)

const goalId = doc(
  z
    .number({ error: required('goalId', 'the id of a goal of this site') })
    .int('goalId must be the id of a goal of this site')
    .min(1, 'goalId must be the id of a goal of this site')
    .max(0x7fffffff, 'goalId must be the id of a goal of this site'),
  'A goal of the same site: it measures success',
)

const status = z.enum(experimentStatuses, {
  error: (issue) =>
    issue.input === undefined
      ? 'status is required'
      : `status must be one of ${experimentStatuses.join(', ')}`,
})

const unknownFields = (issue: { code?: string }) =>
  issue.code === 'unrecognized_keys' ? 'unknown fields' : 'the body must be a JSON object'

/** An experiment's fields, each as a body gives it. */
const fields = {
  name,
  key,
  description,
  variants,
  goalId,
  status: doc(status, 'Informative; results are computed in every state'),
}

/** A new experiment: every field; `description` optional, `status` 'draft' unless given. */
export const createExperimentBody = z.strictObject(
  {
    ...fields,
    description: description.optional(),
    status: doc(status, 'Default draft').default('draft'),
  },
  { error: unknownFields },
)

/** Any subset of an experiment's fields (`variants` replaced whole); unknown fields are refused. */
export const updateExperimentBody = z.strictObject(
  {
    name: name.optional(),
    key: key.optional(),
    description: description.optional(),
    variants: variants.optional(),
    goalId: goalId.optional(),
    status: fields.status.optional(),
  },
  { error: unknownFields },
)

/**
 * An experiment's fields as stored, which a change must leave valid: as on create, but `goalId` null
 * once its goal was deleted.
 */
export const storedExperiment = z.strictObject({ ...fields, goalId: goalId.nullable() })

/** A parsed new experiment. */
export type CreateExperimentBody = z.output<typeof createExperimentBody>
/** A parsed change of an experiment. */
export type UpdateExperimentBody = z.output<typeof updateExperimentBody>
