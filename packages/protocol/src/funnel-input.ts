/**
 * The request bodies and query parameters of the funnel routes (bounds are ours):
 * - `name`: 1-100 characters after trimming.
 * - `steps`: 2 to 10 steps, each `{type: 'path', pathPattern, scrollDepth?, name?}` (with
 *   `scrollDepth`, 1-100: "scrolled that percent of the page", met by an engagement event) or
 *   `{type: 'event', eventName, eventPropertyKey?, eventPropertyValue?, name?}` with the same rules as
 *   goal configs (`goal-input.ts`); a step `name` is 1-100 characters after trimming.
 * A create takes `{name, steps}`, an update any subset of them (`steps` replaced whole), an ad-hoc
 * query `{steps}` alone. Each issue's message names its field; the server answers
 * `Invalid funnel: <field>: <problem>`, steps by 0-based index ('steps.1.pathPattern').
 */
import { z } from 'zod'
import { analyticsQuery, integerParam, single } from './analytics-query.js'
import { filterParameters } from './enums.js'
import {
  checkPropertyPair,
  eventConditionFields,
  MAX_GOAL_NAME,
  pathPatternField,
  scrollDepthField,
} from './goal-input.js'
import { isNulFree, nulMessage } from './nul-free.js'
import { doc } from './openapi-registry.js'

/** Fewest and most steps of a funnel. */
export const MIN_FUNNEL_STEPS = 2
export const MAX_FUNNEL_STEPS = 10
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

const stepName = doc(nameOf('name'), 'Display name').optional()

const pathStep = z.strictObject(
  {
    type: z.literal('path'),
    name: stepName,
    pathPattern: doc(pathPatternField, 'Starts with `/`; `*` only as the last character (prefix match)'),
    scrollDepth: doc(
      scrollDepthField.clone(),
      'A scroll step: met when the session scrolls a matching page to at least this percent (1-100)',
    ).optional(),
  },
  { error: onlyKeys('type, name, pathPattern and scrollDepth') },
)

const eventStep = z
  .strictObject(
    {
      type: z.literal('event'),
      name: stepName,
      ...eventConditionFields,
      eventPropertyKey: doc(
        eventConditionFields.eventPropertyKey.unwrap().clone(),
        'Give with eventPropertyValue',
      ).optional(),
      eventPropertyValue: doc(
        eventConditionFields.eventPropertyValue.unwrap().clone(),
        'Give with eventPropertyKey',
      ).optional(),
    },
    { error: onlyKeys('type, name, eventName, eventPropertyKey and eventPropertyValue') },
  )
  .superRefine(checkPropertyPair)

/** One step: a path pattern or a custom event (optionally with one property value). */
export const funnelStepBody = z.discriminatedUnion('type', [pathStep, eventStep], {
  error: (issue) =>
    issue.code === 'invalid_union' && typeof issue.input === 'object' && issue.input !== null
      ? "type must be 'path' or 'event'"
      : 'a step must be an object',
})

const steps = doc(
  z
    .array(funnelStepBody, {
      error: (issue) => (issue.input === undefined ? 'steps is required' : 'steps must be an array'),
    })
    .min(MIN_FUNNEL_STEPS, `a funnel has at least ${MIN_FUNNEL_STEPS} steps`)
    .max(MAX_FUNNEL_STEPS, `a funnel has at most ${MAX_FUNNEL_STEPS} steps`),
  'In order: a session reaches step k when it matched steps 1..k, each at or after the previous',
)

const unknownFields = (issue: { code?: string }) =>
  issue.code === 'unrecognized_keys' ? 'unknown fields' : 'the body must be a JSON object'

/** `POST .../funnels`: `{name, steps}`. */
export const createFunnelBody = z.strictObject({ name: nameOf('name'), steps }, { error: unknownFields })
/** `PATCH .../funnels/{funnelId}`: any subset of `{name, steps}` (`steps` replaced whole). */
export const updateFunnelBody = z.strictObject(
  { name: nameOf('name').optional(), steps: steps.optional() },
  { error: unknownFields },
)
/** `POST .../funnels/query` and `POST .../funnels/sessions`: `{steps}`. */
export const funnelQueryBody = z.strictObject({ steps }, { error: unknownFields })

/** A `breakdown` parameter (a new schema each time: each route documents it its own way). */
const breakdown = () =>
  z.enum(filterParameters, { error: `breakdown must be one of ${filterParameters.join(', ')}` })

/** The funnel figures' parameters: the common ones and `breakdown`. */
export const funnelQuery = analyticsQuery.extend({
  breakdown: doc(
    breakdown(),
    "The steps again per value of this parameter (the session's first event's value; entry_page / " +
      'exit_page: its first / last pageview), top 10 values by step-1 sessions',
  ).optional(),
})

/** Which sessions of a step: those that reached it, or reached it and not the next one. */
export const funnelOutcomes = ['reached', 'dropped'] as const

/**
 * The sessions routes' parameters: the common ones, the 1-based `step`, the `outcome` and an optional
 * breakdown value (`breakdown` and `breakdown_value` go together: the server's check, as is `step`
 * against the funnel's length).
 */
export const funnelSessionsQuery = analyticsQuery.extend({
  step: doc(integerParam('step', 1, MAX_FUNNEL_STEPS), '1-based step'),
  outcome: doc(
    z.enum(funnelOutcomes, { error: "outcome must be 'reached' or 'dropped'" }),
    'reached (default): sessions that reached the step; dropped: reached it but not the next one',
  ).optional(),
  breakdown: doc(breakdown(), 'With breakdown_value: only sessions with this value').optional(),
  breakdown_value: doc(
    single('breakdown_value').max(2048, 'breakdown_value must be at most 2048 characters'),
    "The session's value of `breakdown`",
  ).optional(),
})

/** A parsed new funnel. */
export type CreateFunnelBody = z.output<typeof createFunnelBody>
/** A parsed change of a funnel. */
export type UpdateFunnelBody = z.output<typeof updateFunnelBody>
/** A parsed step. */
export type FunnelStepBody = z.output<typeof funnelStepBody>
/** The parsed sessions routes' parameters. */
export type FunnelSessionsQuery = z.output<typeof funnelSessionsQuery>
