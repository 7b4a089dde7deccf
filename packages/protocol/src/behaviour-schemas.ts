/**
 * The shapes of the behaviour reports (retention cohorts, user journeys, funnels) and of session
 * replay, as zod schemas registered as OpenAPI components; see `response-schemas.ts` for how they are
 * used.
 */
import { z } from 'zod'
import { filterParameters, retentionPeriods } from './enums.js'
import { component, doc } from './openapi-registry.js'
import { count, day, timestamp } from './schema-fields.js'

export const retentionCohort = component(
  'RetentionCohort',
  z.object({
    cohort: doc(z.string(), {
      format: 'date',
      description:
        "Start of the cohort's period, YYYY-MM-DD in the time zone (a Monday for weeks, the 1st for months; " +
        'the first may lie before `start_date`)',
    }),
    visitors: count('Visitors whose first counted event in the range falls in this period'),
    retained: doc(
      z.array(z.int().min(0)),
      '`retained[k]`: visitors of the cohort with a counted event in the k-th period after it ' +
        "(`retained[0]` = `visitors`); one entry per period from the cohort's to the range's last",
    ),
  }),
  'One cohort of a retention report.',
)

/** The `meta` of a retention answer: the period size and the range (days, both included). */
export const retentionMeta = z.object({
  period: z.enum(retentionPeriods),
  startDate: day,
  endDate: day,
  timeZone: z.string(),
})

export const journeyPath = component(
  'JourneyPath',
  z.object({
    path: doc(
      z.array(z.string()).min(2).max(6),
      'Pathnames in visit order, consecutive repeats collapsed, cut to `steps` (see the route)',
    ),
    sessions: count('Sessions whose cut page sequence is this path'),
  }),
  'One user journey: a page sequence and how many sessions followed it.',
)

const journeyNode = z.object({
  step: doc(z.int().min(1).max(6), '1-based position in the journey'),
  pathname: z.string(),
})

export const journeyLink = component(
  'JourneyLink',
  z.object({
    from: journeyNode,
    to: journeyNode,
    sessions: count('Sessions of the returned journeys that went from `from` to `to`'),
  }),
  'A transition between two consecutive steps of the returned journeys (a Sankey link).',
)

export const journeysMeta = component(
  'JourneysMeta',
  z.object({
    total: count('Distinct journeys over all sessions (not only those returned)'),
    sessions: count('Sessions with a journey (two pages or more), over all journeys'),
    steps: doc(z.int().min(2).max(6), 'Most pages per journey'),
    limit: doc(z.int().min(1), 'Most journeys returned'),
  }),
  'Totals of a journeys report.',
)

const stepName = doc(z.string(), 'Display name (optional)').optional()

export const funnelStep = component(
  'FunnelStep',
  z.discriminatedUnion('type', [
    z.object({
      type: z.literal('path'),
      name: stepName,
      pathPattern: doc(z.string(), 'Starts with `/`; a trailing `*` matches by prefix, otherwise exact'),
      scrollDepth: doc(
        z.int().min(1).max(100),
        'A scroll step: an engagement event of the path with scroll depth at least this percent',
      ).optional(),
    }),
    z.object({
      type: z.literal('event'),
      name: stepName,
      eventName: z.string(),
      eventPropertyKey: doc(z.string(), 'With eventPropertyValue: only events with this property').optional(),
      eventPropertyValue: doc(z.union([z.string(), z.number()]), '`3` matches `3` and `"3"`').optional(),
    }),
  ]),
  'A funnel step: a pageview of a path pattern (with scrollDepth: scrolling it that far), or a custom event (optionally with one property value).',
)

export const funnel = component(
  'Funnel',
  z.object({
    funnelId: z.int().min(1),
    name: z.string(),
    steps: z.array(funnelStep).min(2).max(10),
    createdAt: timestamp(),
  }),
  'A saved funnel of a site.',
)

const fraction = (description: string) => doc(z.number().min(0).max(1), description)

export const funnelStepResult = component(
  'FunnelStepResult',
  z.object({
    step: doc(z.int().min(1), '1-based position'),
    name: doc(z.string(), "The step's name, else its path pattern or event name"),
    sessions: count('Sessions (after filters) that matched steps 1..step in order'),
    conversionFromPrevious: fraction('sessions / sessions of the previous step (1 for step 1 with sessions)'),
    conversionFromStart: fraction('sessions / sessions of step 1'),
    dropoff: count('Sessions of the previous step minus sessions (0 for step 1)'),
    medianSecondsFromPrevious: doc(
      z.int().min(0),
      'Median time from the previous matched step, whole seconds; null for step 1 or no sessions',
    ).nullable(),
  }),
  "One step's figures over the range.",
)

export const funnelReport = component(
  'FunnelReport',
  z.object({
    steps: z.array(funnelStepResult),
    breakdown: doc(
      z.object({
        parameter: z.enum(filterParameters),
        values: z.array(z.object({ value: z.string(), steps: z.array(funnelStepResult) })),
      }),
      "With `breakdown`: the steps per value of the session's parameter, top 10 by step-1 sessions",
    ).optional(),
  }),
  "A funnel's figures over the range.",
)

export const funnelWithResults = component(
  'FunnelWithResults',
  z.object({
    funnelId: z.int().min(1),
    name: z.string(),
    steps: z.array(funnelStep),
    createdAt: timestamp(),
    results: funnelReport,
  }),
  'A saved funnel with its figures over the range.',
)

export const replayResponse = component(
  'ReplayResponse',
  z.object({
    success: z.literal(true),
    recorded: doc(z.boolean(), 'True when the batch was stored (committed); false: deliberately not stored'),
    reason: doc(
      z.string(),
      'Why it was not stored: `replay is off for this site`, `not sampled`, `excluded_ip`, ' +
        '`excluded_country`, or `session over its replay cap`',
    ).optional(),
  }),
  'A session replay batch was stored (`recorded:true`) or deliberately not (`recorded:false`).',
)

export const sessionReplay = component(
  'SessionReplay',
  z.object({
    events: doc(
      z.array(z.looseObject({ timestamp: z.number() })),
      "Every stored rrweb event of the session, batches in sequence order, each batch's events as sent",
    ),
    meta: z.object({
      durationMs: count('Milliseconds from the first event to the last'),
      bytes: count('Bytes stored for the session (batches as sent, gzip or JSON)'),
      truncated: doc(
        z.boolean(),
        'True when the session reached its 20 MB cap (later batches were dropped) or a batch of the ' +
          "sequence is missing where the next one does not open a page's recording (a Meta or full " +
          'snapshot event first): the recording has gaps or ends early',
      ),
    }),
  }),
  "A session's recording, for the player.",
)
