/**
 * The request bodies of the goal routes, with the bounds and messages they answer with (the spec
 * leaves bounds open; these are ours):
 * - `name`: 1-100 characters after trimming, no NUL.
 * - `goalType`: 'path' or 'event'; `config` must have that type's shape and nothing else.
 * - path: `pathPattern` 1-2,048 characters, starting with '/', with '*' only as the last character;
 *   optionally `scrollDepth`, a whole percent 1-100: then the goal is a scroll-depth goal, met by an
 *   engagement event of a matching page whose scroll depth reached it, not by the pageview.
 * - event: `eventName` 1-256 characters; `eventPropertyKey` 1-256 characters and
 *   `eventPropertyValue` (string of at most 256 characters, or a finite number) both or neither.
 * A create takes the whole goal (`goalInput`). An update (`goalUpdate`) takes any subset of
 * `{name, goalType, config}`; the server merges it with the stored goal and checks the result with
 * `goalInput`, so changing `goalType` needs a `config` of the new type. Each issue's message names its
 * field; the server answers `Invalid goal: <field>: <problem>`.
 */
import { z } from 'zod'
import { isNulFree, nulMessage } from './nul-free.js'
import { doc, documentAs } from './openapi-registry.js'

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

/** Bounds of a scroll-depth threshold, in percent of the page's height. */
export const MIN_SCROLL_DEPTH = 1
export const MAX_SCROLL_DEPTH = 100

/**
 * A scroll-depth threshold (shared with funnel steps): a whole percent 1-100; a page read to at least
 * this depth meets it (`scroll_depth >= scrollDepth`).
 */
export const scrollDepthField = z
  .int({ error: 'scrollDepth must be a whole number from 1 to 100 (percent)' })
  .min(MIN_SCROLL_DEPTH, 'scrollDepth must be a whole number from 1 to 100 (percent)')
  .max(MAX_SCROLL_DEPTH, 'scrollDepth must be a whole number from 1 to 100 (percent)')

/** A path goal's config: `{pathPattern, scrollDepth?}` and nothing else. */
export const pathConfig = z.strictObject(
  {
    pathPattern: doc(pathPatternField, 'Starts with `/`; `*` only as the last character (prefix match)'),
    scrollDepth: doc(
      scrollDepthField,
      'A scroll-depth goal: met when a visitor scrolls a matching page to at least this percent (1-100)',
    ).optional(),
  },
  { error: configError("a path goal's config takes only pathPattern and scrollDepth") },
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
    .union(
      [
        z.string().max(MAX_EVENT_FIELD, `eventPropertyValue must be at most ${MAX_EVENT_FIELD} characters`),
        z.number(),
      ],
      { error: 'eventPropertyValue must be a string or a finite number' },
    )
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

/** An event goal's config: `{eventName, eventPropertyKey?, eventPropertyValue?}` and nothing else. */
export const eventConfig = z
  .strictObject(
    {
      ...eventConditionFields,
      eventPropertyKey: doc(
        eventConditionFields.eventPropertyKey.unwrap(),
        'Give with eventPropertyValue',
      ).optional(),
      eventPropertyValue: doc(
        eventConditionFields.eventPropertyValue.unwrap(),
        'Give with eventPropertyKey',
      ).optional(),
    },
    {
      error: configError(
        "an event goal's config takes only eventName, eventPropertyKey and eventPropertyValue",
      ),
    },
  )
  .superRefine(checkPropertyPair)

const goalType = z.enum(['path', 'event'], {
  error: (issue) =>
    issue.input === undefined ? 'goalType is required' : "goalType must be 'path' or 'event'",
})

const unknownFields = (issue: { code?: string }) =>
  issue.code === 'unrecognized_keys' ? 'unknown fields' : 'the body must be a JSON object'

/**
 * A whole goal: `{name, goalType, config}` with the config of that type. Checked field by field in
 * the order of the body (name, goalType, then config by the type given), and documented as the
 * union of the two goal types.
 */
export const goalInput = documentAs(
  z
    .strictObject({ name, goalType, config: z.unknown().optional() }, { error: unknownFields })
    .superRefine((body, ctx) => {
      const schema = body.goalType === 'path' ? pathConfig : eventConfig
      const parsed = schema.safeParse(body.config)
      if (parsed.success) return
      for (const issue of parsed.error.issues) {
        ctx.addIssue({ ...issue, path: ['config', ...issue.path], message: issue.message } as never)
      }
    })
    .transform((body): ParsedGoal => {
      // A config the check above refused has its issues reported there: no value then.
      if (body.goalType === 'path') {
        const config = pathConfig.safeParse(body.config)
        return config.success ? { name: body.name, goalType: 'path', config: config.data } : z.NEVER
      }
      const config = eventConfig.safeParse(body.config)
      return config.success ? { name: body.name, goalType: 'event', config: config.data } : z.NEVER
    }),
  z.discriminatedUnion('goalType', [
    z.strictObject({ name, goalType: z.literal('path'), config: pathConfig }),
    z.strictObject({ name, goalType: z.literal('event'), config: eventConfig }),
  ]),
)

/** A valid goal (what `goalInput` parses to): its name, its type and the config of that type. */
export type ParsedGoal =
  | { name: string; goalType: 'path'; config: z.output<typeof pathConfig> }
  | { name: string; goalType: 'event'; config: z.output<typeof eventConfig> }

/**
 * A goal update: any subset of `{name, goalType, config}`; `config` replaces the stored one whole and
 * is checked against the goal's type once merged (by the server, which knows the stored goal).
 */
export const goalUpdate = z.strictObject(
  {
    name: name.optional(),
    goalType: goalType.optional(),
    config: documentAs(
      doc(z.unknown(), 'Replaces the stored config whole'),
      z.union([pathConfig, eventConfig]),
    ).optional(),
  },
  { error: unknownFields },
)
