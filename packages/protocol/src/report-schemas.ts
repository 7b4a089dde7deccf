/**
 * The shapes of the other analytics reports the server answers (sessions, errors, events, pages, event
 * names, revenue, live visitors), of the ingest counters and of an import's result, as zod schemas
 * registered as OpenAPI components; see `response-schemas.ts` for how they are used. The traffic
 * figures with their comparison are `traffic-schemas.ts`, experiments `experiment-schemas.ts`, web
 * vitals `web-vital-schemas.ts`.
 */
import { z } from 'zod'
import { eventTypes } from './enums.js'
import { component, doc } from './openapi-registry.js'
import { count, timestamp, vital } from './schema-fields.js'

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
          password_reset: count('Password reset requests (each counts) and refused reset tokens'),
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

/** A fraction 0..1 of the visitors with engagement data on a page; null without any. */
const share = (what: string) =>
  doc(z.number().min(0).max(1), `Fraction of visitors with engagement data who ${what}`).nullable()

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
    scroll_depth: doc(
      z.number().min(0).max(100),
      "Median of visitors' deepest scroll on the page, percent of its height; null without engagement data",
    ).nullable(),
    scroll_25: share('reached 25 % of the page'),
    scroll_50: share('reached 50 % of the page'),
    scroll_75: share('reached 75 % of the page'),
    scroll_100: share('reached the bottom of the page'),
    engaged_time: doc(
      z.number().min(0),
      'Engaged seconds (page visible and in use) per pageview; null without engagement data',
    ).nullable(),
    engaged_time_on_page: doc(
      z.number().min(0),
      'Engaged seconds per visitor on the page, the last page of a visit included; null without engagement data',
    ).nullable(),
  }),
  'Traffic of one pathname.',
)

export const engagementSummary = component(
  'EngagementSummary',
  z.object({
    engaged_time_per_visit: doc(
      z.number().min(0),
      'Mean engaged seconds (page visible and in use) per visit with engagement data; null without any',
    ).nullable(),
    engaged_visits: count('Visits (sessions) with engagement data in the range'),
  }),
  'Site-wide engaged time per visit, from the engagement events of the range.',
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

export const reportSummary = z.object({
  siteId: z.int().min(1),
  name: z.string(),
  domain: z.string(),
  access: doc(z.enum(['member', 'private_link', 'public']), 'How the caller reads the site'),
  importedDays: doc(
    z.object({ from: z.string(), to: z.string() }).nullable(),
    "First and last day (YYYY-MM-DD) of the site's imported daily totals (another tool's history, " +
      'Plausible CSV), null without. Reports that need events (funnels, journeys, retention, sessions, ' +
      'replays) leave those days out.',
  ),
})

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
