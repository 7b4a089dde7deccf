/**
 * The shapes the server's routes answer, as zod schemas registered as OpenAPI components. They are the
 * documentation of the response types of the server's domain modules (`Site` in `sites/site.ts`,
 * `Member` in `organizations/members.ts`, ...): the server's test suite validates every JSON response
 * against them, so a change to a response type that is not reflected here fails the tests that exercise
 * it. The types clients read are inferred from them (`types.ts`).
 * Objects are closed (no properties beyond those listed) except where noted.
 */
import { z } from 'zod'
import {
  API_KEY_SCOPES,
  alertMetrics,
  auditActions,
  eventTypes,
  experimentStatuses,
  filterParameters,
  goalTypes,
  retentionPeriods,
  roles,
  seriesBuckets,
  webhookEventTypes,
  webVitalNames,
} from './enums.js'
import { component, doc } from './openapi-registry.js'

/** An ISO 8601 UTC timestamp with milliseconds, e.g. `2026-11-22T10:00:00.123Z`. */
const timestamp = (description = 'ISO 8601 UTC with milliseconds') =>
  doc(z.string(), { format: 'date-time', description })
const count = (description: string) => doc(z.int().min(0), description)

/** `{success:false, error, details?}`: every error the service answers (4xx and 5xx). */
export const errorResponse = component(
  'ErrorResponse',
  z.object({
    success: z.literal(false),
    error: doc(z.string(), 'What went wrong, for people (names the invalid field or parameter)'),
    details: doc(
      z.unknown(),
      'For validation errors `{fieldErrors: {<field>: [message]}, formErrors: [message]}`',
    ).optional(),
  }),
  'An error. The status tells its kind: 400 invalid input, 401 no or bad credentials, 403 not allowed, ' +
    '404 not found (or not yours), 409 conflict, 413 too large, 429 rate limited, 5xx server side.',
)

/** `{success:true}`: the answer of deletions and other actions with nothing to return. */
export const successResponse = component(
  'SuccessResponse',
  z.object({ success: z.literal(true) }),
  'The action was done.',
)

/** `{success:true, data}`: the envelope of most management routes. */
export const successData = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data })

export const pageMeta = component(
  'PageMeta',
  z.object({
    total: count('Items in all pages'),
    page: doc(z.int().min(1), '1-based page number'),
    pageSize: doc(z.int().min(1), 'Items per page (the `limit` asked for)'),
    totalPages: count('ceil(total / pageSize)'),
  }),
  'Paging of a `{data, meta}` list.',
)

/** `{data, meta:{total, page, pageSize, totalPages}}`: a page of a list. */
export const pagedList = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: pageMeta })

export const listMeta = component(
  'ListMeta',
  z.object({ total: count('Items in the list') }),
  'Size of a whole (unpaged) `{data, meta}` list.',
)

/** `{success:true, data:[...], meta:{total}}`: a whole (unpaged) list of a management route. */
export const successList = <T extends z.ZodType>(item: T) =>
  z.object({ success: z.literal(true), data: z.array(item), meta: listMeta })

export const healthResponse = component(
  'Health',
  z.object({
    status: z.enum(['ok', 'unavailable']),
    metadata: z.object({ kind: z.enum(['sqlite', 'postgres']), ok: z.boolean() }),
    events: z.object({ kind: z.enum(['chdb', 'clickhouse']), ok: z.boolean() }),
  }),
  'Whether both stores answer; `unavailable` also while the process shuts down.',
)

export const trackResponse = component(
  'TrackResponse',
  z.object({
    success: z.literal(true),
    tracked: doc(z.literal(false), 'Present (false) when the event was excluded and not stored').optional(),
    reason: doc(
      z.string(),
      'Why it was not stored: `excluded_ip`, `excluded_country`, or `<switch> is off for this site`',
    ).optional(),
  }),
  'The event was recorded (committed) or deliberately excluded (`tracked:false`).',
)

export const trackerConfig = component(
  'TrackerConfig',
  z.object({
    trackOutbound: z.boolean(),
    trackErrors: z.boolean(),
    webVitals: z.boolean(),
    trackUrlParams: z.boolean(),
    sessionReplay: doc(
      z.boolean(),
      'Session replay on: the script loads its recorder (`/api/script-replay.js`) when `replaySampleRate` is above 0',
    ),
    replaySampleRate: doc(
      z.number().min(0).max(1),
      'The share of sessions recorded (0-1); the server samples each session, the script only skips loading at 0',
    ),
  }),
  'The switches the tracking script needs (nothing else of the site: they are public to anyone with the id).',
)

const role = doc(z.enum(roles), 'A role in an organization')

export const organization = component(
  'Organization',
  z.object({
    id: z.string(),
    name: z.string(),
    slug: doc(z.string(), 'The name made URL-safe, plus the first 8 characters of the id'),
    createdAt: timestamp(),
    createdBy: doc(z.string(), 'User id of the creator'),
    role: doc(role, "The caller's role in it").optional(),
  }),
  'An organization: it owns sites and has members.',
)

/** A site's retention period (`site.retentionDays`, `siteConfig.retentionDays`). */
const retentionDays = () =>
  doc(
    z.int().min(30).max(3650),
    'Whole UTC days of events kept (older events are deleted daily); null: the instance default ' +
      '(`RETENTION_DAYS`), else forever',
  ).nullable()

export const site = component(
  'Site',
  z.object({
    id: doc(z.string(), 'UUID'),
    siteId: doc(z.int().min(1), 'The numeric id used in URLs and in `site_id` when tracking'),
    name: z.string(),
    domain: doc(z.string(), 'Host name, normalised (lower case, no scheme, path or port)'),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    createdBy: doc(z.string(), 'User id of the creator'),
    organizationId: z.string(),
    public: doc(z.boolean(), 'Anyone may read its analytics'),
    saltUserIds: doc(z.boolean(), 'Visitor ids change every UTC day'),
    blockBots: z.boolean(),
    isOwner: doc(z.boolean(), "True when the caller's role in the site's organization is owner"),
    sessionReplay: z.boolean(),
    webVitals: z.boolean(),
    trackErrors: z.boolean(),
    trackOutbound: z.boolean(),
    trackUrlParams: z.boolean(),
    retentionDays: retentionDays(),
    replaySampleRate: doc(z.number().min(0).max(1), 'The share of sessions recorded (0-1), as in SiteConfig'),
    replayRetentionDays: doc(z.int().min(1).max(365), 'Whole days a recording is kept, as in SiteConfig'),
  }),
  'A site: a domain whose traffic is tracked.',
)

export const siteConfig = component(
  'SiteConfig',
  z.object({
    public: z.boolean(),
    saltUserIds: z.boolean(),
    blockBots: z.boolean(),
    excludedIPs: doc(z.array(z.string()), 'IPv4/IPv6 addresses and CIDR ranges whose events are dropped'),
    excludedCountries: doc(
      z.array(z.string()),
      'ISO 3166-1 alpha-2 codes (upper case) whose events are dropped',
    ),
    sessionReplay: z.boolean(),
    webVitals: z.boolean(),
    trackErrors: z.boolean(),
    trackOutbound: z.boolean(),
    trackUrlParams: z.boolean(),
    retentionDays: retentionDays(),
    replaySampleRate: doc(
      z.number().min(0).max(1),
      'With `sessionReplay`: the share of sessions recorded (0-1, decided per session id; default 1)',
    ),
    replayRetentionDays: doc(
      z.int().min(1).max(365),
      'Whole days a recording is kept after it is received (1-365; default 30)',
    ),
  }),
  "A site's configuration.",
)

export const siteEventStatus = component(
  'SiteEventStatus',
  z.object({
    hasEvents: z.boolean(),
    lastEventAt: timestamp(
      'When the newest stored event happened (ISO 8601 UTC), null before the first',
    ).nullable(),
  }),
  'Whether a site has received any event yet.',
)

export const privateLink = z.object({
  privateLinkKey: doc(
    z.string(),
    'The private link key (send it as `X-Private-Key`); null when none',
  ).nullable(),
})

export const siteLimits = z.object({
  siteId: z.int().min(1),
  monthlyPageviewLimit: doc(z.int().min(1), 'Pageviews per calendar month (UTC); null: unlimited').nullable(),
})

export const auditEntry = component(
  'AuditEntry',
  z.object({
    id: z.string(),
    organizationId: z.string(),
    siteId: doc(z.int(), 'The site concerned; null for organization-wide actions').nullable(),
    actorUserId: z.string(),
    actorEmail: doc(z.string(), "The actor's email; null when the account is gone").nullable(),
    action: z.enum(auditActions),
    details: doc(z.record(z.string(), z.unknown()), 'What changed; fields depend on the action'),
    createdAt: timestamp(),
  }),
  'One administrative action: who did what, when.',
)

export const member = component(
  'Member',
  z.object({
    userId: z.string(),
    name: z.string(),
    email: z.string(),
    role,
    joinedAt: timestamp(),
  }),
  'A member of an organization.',
)

const apiKeyFields = {
  id: z.string(),
  name: z.string(),
  prefix: doc(z.string(), "The key's first 10 characters, e.g. `pl_AbCdEfG`"),
  scope: doc(
    z.enum(API_KEY_SCOPES),
    '`track`: only sends events; `read`: reports, v1 and other reads; `full`: everything its user may do',
  ),
  createdAt: timestamp(),
  expiresAt: doc(timestamp().nullable(), 'After this the key is refused (401); null: never expires'),
  lastUsedAt: doc(timestamp().nullable(), 'Written at most once a minute per key'),
}

export const apiKey = component('ApiKey', z.object(apiKeyFields), 'An API key as listed: never its value.')

export const createdApiKey = component(
  'CreatedApiKey',
  z.object({
    ...apiKeyFields,
    key: doc(z.string(), 'The key itself (`pl_` + 43 characters), shown only once'),
  }),
  'A new API key, with its value.',
)

export const ownSession = component(
  'OwnSession',
  z.object({
    id: z.string(),
    createdAt: timestamp(),
    updatedAt: doc(timestamp(), 'Last refreshed (once a day of use)'),
    expiresAt: timestamp(),
    ipAddress: doc(z.string().nullable(), 'The client address that signed in'),
    userAgent: z.string().nullable(),
    current: doc(z.boolean(), 'The session making this request'),
  }),
  "One of the signed-in user's sessions (never its token).",
)

const webhookFields = {
  id: z.string(),
  siteId: z.int().min(1),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(webhookEventTypes)),
  enabled: z.boolean(),
  disabledReason: doc(z.string(), 'Why Pathlight disabled it (e.g. days of failed deliveries)').nullable(),
  consecutiveFailures: count('Failed deliveries in a row'),
  failingSince: timestamp('Since when deliveries fail').nullable(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
}

export const webhook = component(
  'Webhook',
  z.object(webhookFields),
  'A webhook subscription (never its secret).',
)

export const createdWebhook = component(
  'CreatedWebhook',
  z.object({ ...webhookFields, secret: doc(z.string(), 'The signing secret, shown only once') }),
  'A new webhook, with its signing secret.',
)

export const webhookSecret = z.object({ secret: doc(z.string(), 'The new signing secret, shown only once') })

export const deliveryAttempt = component(
  'DeliveryAttempt',
  z.object({
    attempt: z.int().min(1),
    statusCode: doc(z.int(), "The receiver's HTTP status; null when no answer came").nullable(),
    responseBody: doc(z.string(), 'The first 2,048 characters of the answer'),
    error: doc(z.string(), 'Network error, timeout, ...').nullable(),
    startedAt: timestamp(),
    durationMs: count('Milliseconds'),
  }),
  'One attempt to deliver.',
)

export const delivery = component(
  'Delivery',
  z.object({
    id: doc(z.string(), 'The delivery id (`X-Pathlight-Delivery`)'),
    eventType: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: count('Attempts made'),
    nextAttemptAt: timestamp('When the next attempt is due (pending deliveries only)').nullable(),
    lastStatusCode: z.int().nullable(),
    lastError: z.string().nullable(),
    createdAt: timestamp(),
    deliveredAt: timestamp().nullable(),
    payload: doc(z.unknown(), 'The JSON body sent: `{id, type, createdAt, siteId, data}`'),
    attemptLog: z.array(deliveryAttempt),
  }),
  'A delivery of one event to one webhook, with every attempt.',
)

export const redelivery = z.object({ deliveryId: doc(z.string(), 'The id of the new delivery') })

export const alertRule = component(
  'AlertRule',
  z.object({
    id: z.string(),
    siteId: z.int().min(1),
    name: z.string(),
    metric: z.enum(alertMetrics),
    eventName: doc(z.string(), 'Only custom events of this name (metric custom_events)').nullable(),
    goalId: doc(z.int().min(1), 'The goal of a goal_conversions rule').nullable(),
    windowMinutes: doc(z.int().min(1), 'The trailing window'),
    comparison: z.enum(['above', 'below']),
    threshold: z.number(),
    relative: doc(z.boolean(), 'Compare the percent change against the window before, not the value'),
    enabled: z.boolean(),
    state: doc(
      z.enum(['ok', 'triggered']),
      '`triggered` while the condition holds (it fired on entering it)',
    ),
    lastValue: z.number().nullable(),
    lastEvaluatedAt: timestamp().nullable(),
    lastTriggeredAt: timestamp().nullable(),
    createdAt: timestamp(),
  }),
  'An alert rule: a metric over a trailing window compared with a threshold.',
)

export const pathGoalConfig = component(
  'PathGoalConfig',
  z.object({
    pathPattern: doc(z.string(), 'Starts with `/`; a trailing `*` matches by prefix, otherwise exact'),
  }),
  'A path goal: a pageview of a path.',
)

export const eventGoalConfig = component(
  'EventGoalConfig',
  z.object({
    eventName: z.string(),
    eventPropertyKey: doc(z.string(), 'With eventPropertyValue: only events with this property').optional(),
    eventPropertyValue: doc(z.union([z.string(), z.number()]), '`3` matches `3` and `"3"`').optional(),
  }),
  'An event goal: a custom event, optionally with one property value.',
)

const figures = {
  total_conversions: count('Sessions that completed the goal in the range'),
  total_sessions: count('Sessions in the range (after filters)'),
  conversion_rate: doc(
    z.number().min(0).max(1),
    'total_conversions / total_sessions, 0..1 (0 without sessions)',
  ),
}
const goalBase = { goalId: z.int().min(1), name: z.string(), createdAt: timestamp(), ...figures }

export const goal = component(
  'Goal',
  z.discriminatedUnion('goalType', [
    z.object({ ...goalBase, goalType: z.literal(goalTypes[0]), config: pathGoalConfig }),
    z.object({ ...goalBase, goalType: z.literal(goalTypes[1]), config: eventGoalConfig }),
  ]),
  'A goal with its conversions over the range.',
)

export const goalId = z.object({ success: z.literal(true), goalId: z.int().min(1) })

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
        }),
        throttled: count('Attempts answered 429 by the authentication throttle'),
      }),
      'Authentication attempts since this process started',
    ),
    rssBytes: count('Resident set size of the process'),
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

export const stats = z.object({
  current: totals,
  previous: doc(totals, 'The same figures for the period of equal length just before'),
  change: doc(
    z.object(
      Object.fromEntries(Object.keys(overviewFields).map((key) => [key, z.number().nullable()])) as Record<
        keyof typeof overviewFields,
        z.ZodNullable<z.ZodNumber>
      >,
    ),
    'Relative change per figure ((current - previous) / previous); null when the previous value is 0',
  ),
  series: doc(z.array(seriesPoint), 'With `bucket`: every bucket of the range').optional(),
})

const day = doc(z.string(), { format: 'date', description: 'YYYY-MM-DD in the time zone' })

/** The `meta` of a stats answer: the range and the period before it (days, both included). */
export const statsMeta = z.object({
  startDate: day,
  endDate: day,
  previousStartDate: day,
  previousEndDate: day,
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
    visitors: count('Visitors'),
    sessions: count('Sessions'),
    pageviews: count('Pageviews'),
  }),
  'One value of a breakdown dimension.',
)

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
  user: z.looseObject({ id: z.string(), name: z.string(), email: z.string() }),
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
    }),
    z.object({
      type: z.literal('event'),
      name: stepName,
      eventName: z.string(),
      eventPropertyKey: doc(z.string(), 'With eventPropertyValue: only events with this property').optional(),
      eventPropertyValue: doc(z.union([z.string(), z.number()]), '`3` matches `3` and `"3"`').optional(),
    }),
  ]),
  'A funnel step: a pageview of a path pattern, or a custom event (optionally with one property value).',
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
          'sequence is missing: the recording has gaps or ends early',
      ),
    }),
  }),
  "A session's recording, for the player.",
)
