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
  alertCrawlerCategories,
  alertMetrics,
  auditActions,
  goalTypes,
  roles,
  webhookEventTypes,
} from './enums.js'
import { component, doc } from './openapi-registry.js'
import { count, timestamp } from './schema-fields.js'

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
    status: z.enum(['ok', 'degraded', 'unavailable']),
    metadata: z.object({ kind: z.enum(['sqlite', 'postgres']), ok: z.boolean() }),
    events: z.object({ kind: z.enum(['chdb', 'clickhouse']), ok: z.boolean() }),
    ingest: doc(
      z.object({
        pendingEvents: count('Accepted events not yet in the events store (journal and write buffer)'),
        oldestPendingAgeSeconds: count(
          'How long the oldest of them has waited, in whole seconds; 0 when none',
        ),
        lastInsertFailed: doc(
          z.boolean(),
          'The last events-store insert failed and none has succeeded since',
        ),
      }),
      'The ingest backlog of this process',
    ),
    reasons: doc(
      z.array(z.string()),
      'Why the status is not `ok`, one line per cause (e.g. `ingest: oldest pending event is 75 s old (limit 60 s)`); empty when ok',
    ),
  }),
  '`ok`: both stores answer and ingest keeps up. `unavailable`: a store does not answer, or the process shuts down. `degraded`: the stores answer but ingest is stalled (the oldest pending event is older than the limit, or the events store refuses writes).',
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

/** The switches only Rybbit's web SDK reads (`GET /api/site/tracking-config/{siteId}`), of Site and SiteConfig. */
const sdkSwitchFields = () => ({
  trackInitialPageView: doc(z.boolean(), "Rybbit's web SDK sends the first pageview by itself (default on)"),
  trackSpaNavigation: doc(
    z.boolean(),
    "Rybbit's web SDK sends a pageview on each client-side navigation (default on)",
  ),
  trackButtonClicks: doc(
    z.boolean(),
    'Button clicks recorded (`button_click`, stored as a custom event; default off)',
  ),
  trackCopy: doc(z.boolean(), 'Text copies recorded (`copy`, stored as a custom event; default off)'),
  trackFormInteractions: doc(
    z.boolean(),
    'Form submits and input changes recorded (`form_submit`, `input_change`, stored as custom events; default off)',
  ),
})

/** The heatmaps switch, of Site and SiteConfig. */
const heatmapsField = () =>
  doc(
    z.boolean(),
    "Clicks recorded against the clicked element for heatmaps (`heatmap_click`, by the script's heatmap chunk; default off)",
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
    heatmaps: doc(z.boolean(), 'Heatmaps on: the script loads its heatmap chunk (`/api/script-heatmap.js`)'),
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
    ...sdkSwitchFields(),
    heatmaps: heatmapsField(),
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
    ...sdkSwitchFields(),
    heatmaps: heatmapsField(),
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
    drops: doc(
      z
        .object({
          count: doc(z.number().int().nonnegative(), 'How many, in all'),
          byReason: doc(
            z.record(z.string(), z.number().int().nonnegative()),
            'How many by reason, e.g. `{"bot:headless_browser": 12}` (the reasons of `/api/admin/ingest-stats`)',
          ),
          lastAt: timestamp('When the last one came (ISO 8601 UTC)'),
        })
        .nullable(),
      'Tracking requests for this site that this server process did not record since it started (bots, domain checks, exclusions, ...); null when none',
    ),
  }),
  'Whether a site has received any event yet, and why requests for it were not recorded.',
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
    crawlerCategory: doc(
      z.enum(alertCrawlerCategories),
      'Crawler metrics: only agents or requests of this category (ai: the three AI categories)',
    ).nullable(),
    crawlerAgent: doc(z.string(), 'Metric crawler_requests: only requests of this agent').nullable(),
    windowMinutes: doc(z.int().min(1), 'The trailing window'),
    comparison: z.enum(['above', 'below']),
    threshold: z.number(),
    relative: doc(z.boolean(), 'Compare the percent change against the window before, not the value'),
    enabled: z.boolean(),
    emailRecipients: doc(z.array(z.string()), 'Addresses mailed when it fires, besides the webhooks'),
    recipients: doc(
      z.array(z.object({ email: z.string(), status: z.enum(['pending', 'active', 'unsubscribed']) })),
      'Each of `emailRecipients` with its state: members of the organization are `active`; other ' +
        'addresses `pending` until they confirm from the mailed link; `unsubscribed` get no more',
    ),
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
    scrollDepth: doc(
      z.int().min(1).max(100),
      'A scroll-depth goal: an engagement event of the path with scroll depth at least this percent',
    ).optional(),
  }),
  'A path goal: a pageview of a path, or with scrollDepth, scrolling it to that depth.',
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
