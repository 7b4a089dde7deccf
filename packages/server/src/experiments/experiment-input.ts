/**
 * Experiment bodies on the server: the schemas are the protocol's (`experiment-input.ts`: fields,
 * bounds and messages); here a parsed change is applied to the stored experiment, and the merged
 * experiment is validated again. Create takes the whole body. Update takes any subset of the fields:
 * those sent replace the stored ones (`variants` as a whole). `goalId` cannot be set to null; a stored
 * null (the goal was deleted) is kept until a new goal is sent.
 * Failures are AppError 400 `Invalid experiment: <field>: <problem>` with `details.fieldErrors` keyed
 * by dotted field path ('variants.1.name').
 */
import {
  type CreateExperimentBody,
  createExperimentBody,
  storedExperiment,
  type UpdateExperimentBody,
  updateExperimentBody,
  type ExperimentInput as WireExperimentInput,
} from '@pathlight/protocol'
import { invalidBody } from '../shared/invalid-body.js'

export {
  EXPERIMENT_KEY_PATTERN,
  MAX_EXPERIMENT_DESCRIPTION,
  MAX_EXPERIMENT_NAME,
  MAX_VARIANT_NAME,
  MAX_VARIANTS,
  MIN_VARIANTS,
} from '@pathlight/protocol'

/**
 * A validated experiment: everything but ids and times. The protocol's `ExperimentInput`, except that
 * `goalId` may be null here: kept from a stored experiment whose goal was deleted (a body cannot send null).
 */
export type ExperimentInput = Omit<WireExperimentInput, 'goalId'> & { goalId: number | null }

/** The experiment a parsed create body describes (no description: null). */
export function toExperimentInput(body: CreateExperimentBody): ExperimentInput & { goalId: number } {
  return { ...body, description: body.description ?? null }
}

/** Validate a create body. @throws AppError 400 (see module comment) */
export function parseExperimentInput(body: unknown): ExperimentInput & { goalId: number } {
  const parsed = createExperimentBody.safeParse(body ?? {})
  if (!parsed.success) throw invalidBody('experiment', parsed.error.issues)
  return toExperimentInput(parsed.data)
}

/**
 * Apply a parsed change to the stored experiment and validate the result.
 * @param current the stored experiment (other fields it has, such as ids and times, are ignored)
 * @returns the experiment after the update, and the names of the fields the body sent
 * @throws AppError 400 (see module comment)
 */
export function applyExperimentUpdate(
  current: ExperimentInput,
  update: UpdateExperimentBody,
): { input: ExperimentInput; changed: (keyof ExperimentInput)[] } {
  const changed = (Object.keys(update) as (keyof ExperimentInput)[]).filter(
    (field) => update[field] !== undefined,
  )
  const stored: ExperimentInput = {
    name: current.name,
    key: current.key,
    description: current.description,
    variants: current.variants,
    goalId: current.goalId,
    status: current.status,
  }
  const sent = Object.fromEntries(changed.map((field) => [field, update[field]]))
  const parsed = storedExperiment.safeParse({ ...stored, ...sent })
  if (!parsed.success) throw invalidBody('experiment', parsed.error.issues)
  return { input: parsed.data, changed }
}

/**
 * Validate an update body against the stored experiment (`applyExperimentUpdate` of the parsed body).
 * @throws AppError 400 (see module comment)
 */
export function parseExperimentUpdate(
  current: ExperimentInput,
  body: unknown,
): { input: ExperimentInput; changed: (keyof ExperimentInput)[] } {
  const update = updateExperimentBody.safeParse(body ?? {})
  if (!update.success) throw invalidBody('experiment', update.error.issues)
  return applyExperimentUpdate(current, update.data)
}
