/**
 * The shapes of the analytics reports the server answers (sessions, errors, events, stats, pages,
 * revenue, experiments, breakdowns, web vitals, live visitors) and of an import's result, as zod
 * schemas registered as OpenAPI components; see `response-schemas.ts` for how they are used.
 */
import { z } from 'zod'
import { eventTypes, experimentStatuses, seriesBuckets, seriesMetrics, webVitalNames } from './enums.js'
import { component, doc } from './openapi-registry.js'
import { pageMeta } from './response-schemas.js'
import { count, day, timestamp } from './schema-fields.js'

const text = (description?: string) => (description ? doc(z.string(), description) : z.string())

export const session = component(
  'Session',
  z.object({
    session_id: z.string(),
    user_id: text('The visitor id (or the `user_id` sent when tracking)'),
    country: z.string(),
    browser: z.string(),
    operating_system: z.string(),
    device_type: z.string(),
    entry_page: z.string(),
    exit_page: z.string(),
    pageviews: count('Pageviews in the range'),
    session_duration: count('Whole seconds from its first to its last event'),
    session_start: timestamp(),
    session_end: timestamp(),
    referrer: text("Referrer URL of the session's first event ('' for none)"),
    channel: z.string(),
    hasReplay: doc(
      z.boolean(),
      'Whether a session replay recording is stored for it (only on `GET /api/sites/{siteId}/sessions`)',
    ).optional(),
  }),
  'A session (events of one visitor with less than 30 minutes between them).',
)

export const errorName = component(
  'ErrorName',
  z.object({
    value: text('The error message'),
    errorName: text('The error name (e.g. TypeError)'),
    count: count('Occurrences in the range'),
    sessionCount: count('Sessions with the error'),
    percentage: doc(
      z.number().min(0).max(100),
      'Share of all error occurrences in the range, 0-100, two decimals',
    ),
  }),
  'A JavaScript error message with its counts (the spec\'s "Error").',
)

export const errorEvent = component(
  'ErrorEvent',
  z.object({
    timestamp: timestamp(),
    session_id: z.string(),
    user_id: z.string(),
    pathname: z.string(),
    hostname: z.string(),
    browser: z.string(),
    browser_version: z.string(),
    operating_system: z.string(),
    device_type: z.string(),
    country: z.string(),
    message: z.string(),
    stack: z.string(),
    fileName: z.string(),
    lineNumber: z.int(),
    columnNumber: z.int(),
  }),
  'One occurrence of a JavaScript error.',
)

export const errorBucket = component(
  'ErrorBucket',
  z.object({ time: timestamp("The bucket's start (ISO 8601 UTC)"), error_count: count('Occurrences') }),
  'Occurrences of one error message in one time bucket.',
)

const eventFields = {
  eventId: doc(z.string(), 'UUID'),
  timestamp: timestamp(),
  type: z.enum(eventTypes),
  sessionId: z.string(),
  userId: z.string(),
  hostname: z.string(),
  pathname: z.string(),
  querystring: z.string(),
  pageTitle: z.string(),
  referrer: z.string(),
  channel: z.string(),
  eventName: z.string(),
  properties: doc(z.record(z.string(), z.unknown()), "The event's properties ({} when none)"),
  country: z.string(),
  region: z.string(),
  city: z.string(),
  browser: z.string(),
  operatingSystem: z.string(),
  deviceType: z.string(),
  language: z.string(),
}

export const event = component(
  'Event',
  z.object(eventFields),
  'A tracked event (strings are empty when unknown).',
)

export const ingestStats = component(
  'IngestStats',
  z.object({
    accepted: count('Events committed since this process started'),
    dropped: doc(
      z.record(z.string(), z.int().min(0)),
      'Requests not recorded, by reason (`bot:crawler`, ...)',
    ),
    writeBuffer: z.object({
      acknowledgedRows: z.int().min(0),
      committedRows: z.int().min(0),
      batches: z.int().min(0),
      pendingRows: z.int().min(0),
    }),
    auth: doc(
      z.object({
        failures: z.object({
          sign_in: count('Failed sign-ins'),
          sign_up: count('Refused sign-ups'),
          password: count('Failed password changes and other password checks'),
          two_factor: count('Wrong two-factor sign-in codes (authenticator or backup codes)'),
        }),
        throttled: count('Attempts answered 429 by the authentication throttle'),
      }),
      'Authentication attempts since this process started',
    ),
    rssBytes: count('Resident set size of the process'),
    rollups: doc(
      z.object({
        hoursToFold: count('Closed hours inserted into since the session fold last took them'),
        monthsToSeal: count("Closed months whose pages' days changed since last sealed"),
      }),
      'How far the background fold and seal are behind, over every site (read from the events store; 0 and 0 once caught up, e.g. after an import)',
    ),
  }),
  'Ingest counters of this process.',
)

const overviewFields = {
  visitors: count('Distinct visitors'),
  sessions: count('Sessions'),
  pageviews: count('Pageviews'),
  bounce_rate: doc(z.number().min(0).max(1), 'Bounces / sessions, a fraction'),
  session_duration: doc(z.number().min(0), 'Average session duration, seconds'),
  pages_per_session: doc(z.number().min(0), 'Pageviews / sessions'),
  events: count('Custom events'),
}

export const totals = component('Totals', z.object(overviewFields), 'Headline figures over a range.')

export const seriesPoint = component(
  'SeriesPoint',
  z.object({
    time: timestamp("The bucket's start (ISO 8601 UTC)"),
    visitors: count('Visitors active in the bucket'),
    sessions: count('Sessions active in the bucket'),
    pageviews: count('Pageviews'),
  }),
  'Traffic in one time bucket.',
)

export const seriesCounts = component(
  'SeriesCounts',
  seriesPoint.partial({ visitors: true, sessions: true, pageviews: true }),
  'Traffic in one time bucket: the counts `metrics` asked for (all three by default), the others absent.',
)

/** The compared range's days in a `meta` (present when the answer carries compared figures). */
const comparedDays = {
  previousStartDate: doc(day, 'First day of the compared range').optional(),
  previousEndDate: doc(day, 'Last day of the compared range, included').optional(),
}

/**
 * A series point with, when a comparison was asked for, the compared range's bucket at the same
 * position (the first with the first, ...; null past the compared range's last bucket).
 */
const withComparedBucket = <T extends z.ZodType>(point: T) =>
  doc(point.nullable(), "The compared range's bucket at the same position; null past its end").optional()

/** A series point of the `series` route: the counts asked for and the compared bucket's. */
export const comparedSeriesCounts = seriesCounts.extend({ previous: withComparedBucket(seriesCounts) })

/** A series point of the stats: the three counts and the compared bucket's. */
export const comparedSeriesPoint = seriesPoint.extend({ previous: withComparedBucket(seriesPoint) })

/** The `meta` of a series answer (`GET /api/sites/{siteId}/series`): the range, its buckets, the counts. */
export const seriesMeta = z.object({
  startDate: day,
  endDate: day,
  ...comparedDays,
  timeZone: z.string(),
  bucket: z.enum(seriesBuckets),
  metrics: doc(z.array(z.enum(seriesMetrics)), 'The counts each point carries'),
})

export const stats = z.object({
  current: totals,
  previous: doc(
    totals,
    'The same figures over the compared range (`compare`; absent with compare=none)',
  ).optional(),
  change: doc(
    z.object(
      Object.fromEntries(Object.keys(overviewFields).map((key) => [key, z.number().nullable()])) as Record<
        keyof typeof overviewFields,
        z.ZodNullable<z.ZodNumber>
      >,
    ),
    'Relative change per figure ((current - previous) / previous); null when the previous value is 0',
  ).optional(),
  series: doc(
    z.array(comparedSeriesPoint),
    'With `bucket`: every bucket of the range, each with the compared bucket at its position',
  ).optional(),
})

/** The `meta` of a stats answer: the range and the compared range (days, both included; none with compare=none). */
export const statsMeta = z.object({
  startDate: day,
  endDate: day,
  ...comparedDays,
  timeZone: z.string(),
  bucket: z.enum(seriesBuckets).optional(),
})

export const pageStats = component(
  'PageStats',
  z.object({
    pathname: z.string(),
    pageviews: count('Pageviews'),
    visitors: count('Visitors'),
    entries: count('Sessions that started here'),
    exits: count('Sessions that ended here'),
    bounce_rate: doc(z.number().min(0).max(1), 'Bounces among the sessions that started here, a fraction'),
    time_on_page: doc(z.number().min(0), 'Average seconds on the page; null when not measurable').nullable(),
  }),
  'Traffic of one pathname.',
)

export const eventName = component(
  'EventName',
  z.object({
    name: z.string(),
    events: count('Events of this name'),
    sessions: count('Sessions with one'),
    visitors: count('Visitors with one'),
  }),
  'A custom event name with its counts.',
)

export const eventNameCounts = component(
  'EventNameCounts',
  eventName.partial({ sessions: true, visitors: true }),
  'A custom event name with its counts: events, and the others `metrics` asked for (all by default), the others absent.',
)

const money = (description: string) => doc(z.number(), description)
export const revenueReport = component(
  'RevenueReport',
  z.object({
    totals: z.array(
      z.object({
        currency: doc(z.string(), 'ISO 4217 code'),
        revenue: money('Sum of the revenue events'),
        events: count('Revenue events'),
        visitors: count('All counted visitors of the range'),
        revenue_per_visitor: money('revenue / visitors'),
      }),
    ),
    byEventName: z.array(
      z.object({ currency: z.string(), event_name: z.string(), revenue: z.number(), events: z.int().min(0) }),
    ),
    byPathname: z.array(
      z.object({ currency: z.string(), pathname: z.string(), revenue: z.number(), events: z.int().min(0) }),
    ),
    series: z.array(
      z.object({
        time: timestamp("The bucket's start (ISO 8601 UTC)"),
        currency: z.string(),
        revenue: z.number(),
      }),
    ),
  }),
  'Revenue per currency (never converted), from custom events carrying `revenue` and `currency`.',
)

const experimentFields = {
  experimentId: z.int().min(1),
  siteId: z.int().min(1),
  key: doc(z.string(), 'Matched exactly against `properties.experiment` of exposure events'),
  name: z.string(),
  description: z.string().nullable(),
  variants: z.array(
    z.object({
      name: doc(z.string(), 'Matched exactly against `properties.variant`'),
      control: z.boolean(),
    }),
  ),
  goalId: doc(z.int().min(1), 'The goal measuring success; null once that goal was deleted').nullable(),
  status: z.enum(experimentStatuses),
  createdAt: timestamp(),
  updatedAt: timestamp(),
}

export const experiment = component('Experiment', z.object(experimentFields), 'An A/B experiment of a site.')

const nullableNumber = (description: string) => doc(z.number(), description).nullable()

export const variantResult = component(
  'VariantResult',
  z.object({
    name: z.string(),
    control: z.boolean(),
    exposedSessions: count('Sessions whose first exposure in the range was to this variant'),
    conversions: doc(
      z.int().min(0),
      'Exposed sessions that then completed the goal; null without a goal',
    ).nullable(),
    conversionRate: nullableNumber('conversions / exposedSessions, 0..1'),
    uplift: nullableNumber('(rate - control rate) / control rate; null for the control'),
    zScore: nullableNumber('Two-proportion z statistic against the control'),
    pValue: nullableNumber('Two-sided p-value of zScore'),
    ci95: doc(z.tuple([z.number(), z.number()]), '95 % interval of rate - control rate').nullable(),
  }),
  "One variant's figures over the range.",
)

export const experimentWithResults = component(
  'ExperimentWithResults',
  z.object({
    ...experimentFields,
    results: z.object({
      variants: z.array(variantResult),
      crossovers: count('Exposed sessions that saw two or more variants'),
      totalExposedSessions: count('Sum of exposedSessions'),
    }),
  }),
  'An experiment with its results over the range.',
)

export const reportSummary = z.object({
  siteId: z.int().min(1),
  name: z.string(),
  domain: z.string(),
  access: doc(z.enum(['member', 'private_link', 'public']), 'How the caller reads the site'),
})

export const breakdownRow = component(
  'BreakdownRow',
  z.object({
    value: doc(z.string(), "The dimension's value ('' when unknown)"),
    visitors: count('Visitors (absent when `metrics` leaves it out)').optional(),
    sessions: count('Sessions (absent when `metrics` leaves it out)').optional(),
    pageviews: count('Pageviews (absent when `metrics` leaves it out)').optional(),
    previous: doc(
      z.object({
        visitors: z.int().min(0).optional(),
        sessions: z.int().min(0).optional(),
        pageviews: z.int().min(0).optional(),
      }),
      'With `compare`: the same counts of this value over the compared range',
    ).optional(),
    change: doc(
      z.object({
        visitors: z.number().nullable().optional(),
        sessions: z.number().nullable().optional(),
        pageviews: z.number().nullable().optional(),
      }),
      'With `compare`: relative change per count ((current - previous) / previous); null when the previous value is 0',
    ).optional(),
  }),
  'One value of a breakdown dimension, with the counts `metrics` asked for (all three by default).',
)

/** A page of breakdown rows; with `compare`, `meta` names the compared range. */
export const breakdownPage = z.object({
  data: z.array(breakdownRow),
  meta: pageMeta.extend(comparedDays),
})

const vital = (description: string) => doc(z.number().min(0), description).nullable()

export const sessionEvent = component(
  'SessionEvent',
  z.object({
    ...eventFields,
    errorMessage: doc(z.string(), "The error's message for error events, else ''"),
    lcp: vital('ms'),
    cls: vital('unitless'),
    inp: vital('ms'),
    fcp: vital('ms'),
    ttfb: vital('ms'),
  }),
  'An event of a session, with its error message and web vitals.',
)

const webVitalStats = component(
  'WebVitalStats',
  z.object({
    samples: count('Performance events carrying the metric'),
    p50: vital('Median, in the metric unit'),
    p75: vital('75th percentile'),
    p90: vital('90th percentile'),
    good: doc(z.number().min(0).max(1), 'Share of samples rated good'),
    needs_improvement: z.number().min(0).max(1),
    poor: z.number().min(0).max(1),
    rating: doc(z.enum(['good', 'needs_improvement', 'poor']), 'The band of p75').nullable(),
  }),
  "One web vital's figures.",
)

const vitalsFields = Object.fromEntries(webVitalNames.map((name) => [name, webVitalStats])) as Record<
  (typeof webVitalNames)[number],
  typeof webVitalStats
>

export const webVitals = component('WebVitals', z.object(vitalsFields), 'Every web vital over the range.')

export const webVitalsRow = component(
  'WebVitalsRow',
  z.object({ value: z.string(), events: count('Performance events with this value'), ...vitalsFields }),
  'The web vitals of one value of a dimension.',
)

const threshold = z.object({
  good: z.number(),
  poor: z.number(),
  unit: z.enum(['ms', '']),
  decimals: z.int().min(0),
})

export const webVitalsThresholds = doc(
  z.object(
    Object.fromEntries(webVitalNames.map((name) => [name, threshold])) as Record<
      (typeof webVitalNames)[number],
      typeof threshold
    >,
  ),
  'Band limits per metric: good up to `good`, poor above `poor`',
)

export const liveVisitors = z.object({
  visitors: count('Distinct visitors with an event in the window'),
  from: timestamp('Start of the window (excluded): 5 minutes before `to`'),
  to: timestamp('End of the window (included): now, by the server clock'),
})

/**
 * The part of Better Auth's `GET /api/auth/get-session` answer that clients read (it answers null when
 * signed out). Better Auth's own shape, with more fields than these: not an OpenAPI component, and not
 * checked by the response validator.
 */
export const authSession = z.looseObject({
  user: z.looseObject({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    twoFactorEnabled: doc(z.boolean().nullish(), 'Whether sign-in asks for a two-factor code'),
  }),
  session: z.looseObject({ id: z.string(), expiresAt: z.string() }),
})

export const importResult = component(
  'ImportResult',
  z.object({
    success: z.literal(true),
    imported: count('Events stored'),
    dropped: doc(
      z.record(z.string(), z.int().min(0)),
      'Valid lines not stored, by reason (`bot:crawler`, `excluded_ip`, `excluded_country`, `duplicate`)',
    ),
    rejectedCount: count('Invalid lines'),
    rejected: doc(
      z.array(
        z.object({
          line: doc(z.int().min(1), '1-based line number in the body'),
          error: doc(z.string(), 'What is wrong, naming the field'),
        }),
      ),
      'The first 100 invalid lines',
    ),
  }),
  'What an import stored, dropped and rejected.',
)
