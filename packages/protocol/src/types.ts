/**
 * The types of the wire shapes, inferred from the response schemas (`schemas.ts`) (what the server
 * answers) and, for request bodies, picked from them (what a client sends back is a part of what it
 * reads; the server's tests check each against the server's request schema). Counts are integers,
 * rates fractions 0..1, durations seconds, vitals milliseconds (CLS unitless), timestamps ISO 8601 UTC
 * with milliseconds.
 */
import type { z } from 'zod'
import type { FilterParameter, FilterType, PropertyFilterType } from './enums.js'
import type * as s from './schemas.js'

export type {
  AlertMetric,
  ApiKeyScope,
  AuditAction,
  EventType,
  ExperimentStatus,
  FilterParameter,
  FilterType,
  GoalType,
  PropertyFilterType,
  Role,
  SeriesBucket,
  WebhookEventType,
  WebVitalName,
} from './enums.js'

// Envelopes and service
export type ErrorResponse = z.infer<typeof s.errorResponse>
export type SuccessResponse = z.infer<typeof s.successResponse>
export type PageMeta = z.infer<typeof s.pageMeta>
/** `{data, meta}`: a page of a list. */
export type Paged<T> = { data: T[]; meta: PageMeta }
/** A whole (unpaged) list of a management route. */
export type WholeList<T> = { success: true; data: T[]; meta: ListMeta }
export type ListMeta = z.infer<typeof s.listMeta>
export type Health = z.infer<typeof s.healthResponse>
export type TrackResponse = z.infer<typeof s.trackResponse>
export type TrackerConfig = z.infer<typeof s.trackerConfig>
export type IngestStats = z.infer<typeof s.ingestStats>

// Accounts, organizations, sites
/** `GET /api/auth/get-session` (Better Auth): the fields clients read; null when signed out. */
export type SessionInfo = z.infer<typeof s.authSession>
export type User = SessionInfo['user']
export type Organization = z.infer<typeof s.organization>
export type Member = z.infer<typeof s.member>
export type AuditEntry = z.infer<typeof s.auditEntry>
export type ApiKey = z.infer<typeof s.apiKey>
export type CreatedApiKey = z.infer<typeof s.createdApiKey>
export type OwnSession = z.infer<typeof s.ownSession>
export type Site = z.infer<typeof s.site>
export type SiteConfig = z.infer<typeof s.siteConfig>
export type SiteEventStatus = z.infer<typeof s.siteEventStatus>
export type PrivateLink = z.infer<typeof s.privateLink>
export type SiteLimits = z.infer<typeof s.siteLimits>
/** `GET .../summary`: what a reader (member, link holder, anyone for a public site) may know. */
export type SiteSummary = z.infer<typeof s.reportSummary>

// Webhooks and alerts
export type Webhook = z.infer<typeof s.webhook>
export type CreatedWebhook = z.infer<typeof s.createdWebhook>
export type DeliveryAttempt = z.infer<typeof s.deliveryAttempt>
export type Delivery = z.infer<typeof s.delivery>
export type AlertRule = z.infer<typeof s.alertRule>

// Goals and experiments
export type Goal = z.infer<typeof s.goal>
export type PathGoalConfig = z.infer<typeof s.pathGoalConfig>
export type EventGoalConfig = z.infer<typeof s.eventGoalConfig>
export type Experiment = z.infer<typeof s.experiment>
export type ExperimentVariant = Experiment['variants'][number]
export type VariantResult = z.infer<typeof s.variantResult>
export type ExperimentWithResults = z.infer<typeof s.experimentWithResults>

// Reports
export type Totals = z.infer<typeof s.totals>
export type SeriesPoint = z.infer<typeof s.seriesPoint>
export type SeriesCounts = z.infer<typeof s.seriesCounts>
export type SeriesMeta = z.infer<typeof s.seriesMeta>
/** A series point with the compared range's bucket at its position (`compare` given). */
export type ComparedSeriesCounts = z.infer<typeof s.comparedSeriesCounts>
/** `GET .../stats`. `change` is relative (0.25 = +25 %), null when the previous value is 0. */
export type Stats = z.infer<typeof s.stats>
export type StatsMeta = z.infer<typeof s.statsMeta>
export type BreakdownRow = z.infer<typeof s.breakdownRow>
export type PageStats = z.infer<typeof s.pageStats>
export type EventName = z.infer<typeof s.eventName>
export type EventNameCounts = z.infer<typeof s.eventNameCounts>
export type RevenueReport = z.infer<typeof s.revenueReport>
export type Session = z.infer<typeof s.session>
/** An event of the events list (the `Event` component; named apart from the DOM's `Event`). */
export type ListedEvent = z.infer<typeof s.event>
/** An event of a session's timeline. */
export type SessionEvent = z.infer<typeof s.sessionEvent>
/** A session's recording for the player: rrweb events in order, and its size. */
export type SessionReplay = z.infer<typeof s.sessionReplay>
export type ErrorName = z.infer<typeof s.errorName>
export type ErrorEvent = z.infer<typeof s.errorEvent>
export type ErrorBucket = z.infer<typeof s.errorBucket>
export type WebVitals = z.infer<typeof s.webVitals>
export type WebVitalStats = WebVitals[keyof WebVitals]
export type WebVitalRating = NonNullable<WebVitalStats['rating']>
export type WebVitalsRow = z.infer<typeof s.webVitalsRow>
export type WebVitalThresholds = z.infer<typeof s.webVitalsThresholds>
export type WebVitalThreshold = WebVitalThresholds[keyof WebVitalThresholds]
export type LiveVisitors = z.infer<typeof s.liveVisitors>

// Request bodies and parameters
/** `Pick` over each member of a union. */
type PickEach<T, K extends keyof T> = T extends unknown ? Pick<T, K> : never

/** A column's filter: the values are alternatives (at least one). */
export interface ColumnFilter {
  parameter: FilterParameter
  type: FilterType
  value: string[]
}
/** The parameter of a custom property filter: `properties.<key>`. */
export type PropertyFilterParameter = `properties.${string}`
/** A custom property's filter; `is_set` / `is_not_set` take no values (`[]`). */
export interface PropertyFilter {
  parameter: PropertyFilterParameter
  type: PropertyFilterType
  value: string[]
}
/** One report filter (an element of the JSON `filters` parameter). */
export type ReportFilter = ColumnFilter | PropertyFilter
/** `POST /api/user/api-keys`. `expiresAt`: ISO 8601 date-time in the future, or null for never. */
export type ApiKeyInput = Pick<ApiKey, 'name' | 'scope' | 'expiresAt'>
/** `POST /api/sites/{siteId}/webhooks` (`enabled` defaults to true); a PATCH sends any part. */
export type WebhookInput = Pick<Webhook, 'url' | 'events' | 'description'> & Partial<Pick<Webhook, 'enabled'>>
/** `POST /api/sites/{siteId}/alerts` (every metric but `goal_conversions`, which also needs `goalId`). */
export type AlertRuleInput = Pick<
  AlertRule,
  | 'name'
  | 'metric'
  | 'eventName'
  | 'windowMinutes'
  | 'comparison'
  | 'threshold'
  | 'relative'
  | 'enabled'
  | 'emailRecipients'
> &
  Partial<Pick<AlertRule, 'crawlerCategory' | 'crawlerAgent'>>
/** A goal's type and config, as a goal carries and a create or update sends them. */
export type GoalConfig = PickEach<Goal, 'goalType' | 'config'>
/** `POST /api/sites/{siteId}/goals` and `PUT .../goals/{goalId}`. */
export type GoalInput = PickEach<Goal, 'name' | 'goalType' | 'config'>
/** `POST /api/sites/{siteId}/experiments` (all fields) and `PATCH` (any part). */
export type ExperimentInput = Pick<Experiment, 'name' | 'key' | 'description' | 'variants' | 'status'> & {
  goalId: number
}
/** The answer of `POST /api/sites/{siteId}/import`. */
export type ImportResult = z.infer<typeof s.importResult>
/** The answer of `DELETE /api/sites/{siteId}/users/{userId}` (and `.../visitors/{visitorId}`). */
export type ErasureResult = z.infer<typeof s.erasureResult>
/** One cohort of `GET /api/sites/{siteId}/retention`. */
export type RetentionCohort = z.infer<typeof s.retentionCohort>
/** The `meta` of a retention answer. */
export type RetentionMeta = z.infer<typeof s.retentionMeta>
/** One user journey of `GET /api/sites/{siteId}/journeys`. */
export type JourneyPath = z.infer<typeof s.journeyPath>
/** A transition of the returned journeys (a Sankey link). */
export type JourneyLink = z.infer<typeof s.journeyLink>
/** The `meta` of the journeys report. */
export type JourneysMeta = z.infer<typeof s.journeysMeta>
/** A step of a funnel (`POST /api/sites/{siteId}/funnels/query` and saved funnels). */
export type FunnelStep = z.infer<typeof s.funnelStep>
/** A saved funnel. */
export type Funnel = z.infer<typeof s.funnel>
/** One step's figures of a funnel report. */
export type FunnelStepResult = z.infer<typeof s.funnelStepResult>
/** A funnel's figures: steps, and per breakdown value. */
export type FunnelReport = z.infer<typeof s.funnelReport>
/** A saved funnel with its figures. */
export type FunnelWithResults = z.infer<typeof s.funnelWithResults>
