/**
 * The server's resources as the dashboard receives them (see the README's HTTP API table). Kept here,
 * not imported from the server, so the browser bundle depends on nothing of the server's.
 */

export type Role = 'owner' | 'admin' | 'member'

export interface User {
  id: string
  name: string
  email: string
}

/** `GET /api/auth/get-session` (Better Auth); null when signed out. */
export interface SessionInfo {
  user: User
  session: { id: string; expiresAt: string }
}

export interface Organization {
  id: string
  name: string
  slug: string
  createdAt: string
  createdBy: string
  /** The caller's role in it. */
  role?: Role
}

export interface Site {
  id: string
  siteId: number
  name: string
  domain: string
  createdAt: string
  updatedAt: string
  createdBy: string
  organizationId: string
  public: boolean
  saltUserIds: boolean
  blockBots: boolean
  isOwner: boolean
  sessionReplay: boolean
  webVitals: boolean
  trackErrors: boolean
  trackOutbound: boolean
  trackUrlParams: boolean
}

/** The spec's site configuration object (`PUT /api/sites/{siteId}/config`). */
export interface SiteConfig {
  public: boolean
  saltUserIds: boolean
  blockBots: boolean
  excludedIPs: string[]
  excludedCountries: string[]
  sessionReplay: boolean
  webVitals: boolean
  trackErrors: boolean
  trackOutbound: boolean
  trackUrlParams: boolean
}

export type SwitchName = {
  [K in keyof SiteConfig]: SiteConfig[K] extends boolean ? K : never
}[keyof SiteConfig]

export interface SiteEventStatus {
  hasEvents: boolean
  lastEventAt: string | null
}

export interface Member {
  userId: string
  name: string
  email: string
  role: Role
  joinedAt: string
}

/**
 * What an API key may do: `track` only send events (`POST /api/track`); `read` reports, the v1 API and
 * other reads, no changes and no tracking; `full` everything its user may do.
 */
export type ApiKeyScope = 'track' | 'read' | 'full'

export interface ApiKeyInfo {
  id: string
  name: string
  /** First 10 characters of the key. */
  prefix: string
  scope: ApiKeyScope
  createdAt: string
  /** ISO 8601; null for a key that does not expire. */
  expiresAt: string | null
  /** ISO 8601, to the minute at best (the server writes it at most once a minute); null if never used. */
  lastUsedAt: string | null
}

/** The body of `POST /api/user/api-keys`. */
export interface ApiKeyInput {
  name: string
  scope: ApiKeyScope
  /** ISO 8601 date-time in the future, or null for a key that does not expire. */
  expiresAt: string | null
}

/** One of the signed-in user's sessions (`GET /api/user/sessions`), never its token. */
export interface UserSession {
  id: string
  createdAt: string
  /** When the session was last refreshed (Better Auth does it at most once a day of use). */
  updatedAt: string
  expiresAt: string
  ipAddress: string | null
  userAgent: string | null
  /** Whether this is the session of this browser. */
  current: boolean
}

export const webhookEventTypes = [
  'session.created',
  'event.tracked',
  'goal.converted',
  'alert.triggered',
] as const
export type WebhookEventType = (typeof webhookEventTypes)[number]

export interface Webhook {
  id: string
  siteId: number
  url: string
  description: string
  events: WebhookEventType[]
  enabled: boolean
  disabledReason: string | null
  consecutiveFailures: number
  failingSince: string | null
  createdAt: string
  updatedAt: string
}

export interface WebhookInput {
  url: string
  events: WebhookEventType[]
  description: string
  enabled?: boolean
}

export interface DeliveryAttempt {
  attempt: number
  statusCode: number | null
  responseBody: string
  error: string | null
  startedAt: string
  durationMs: number
}

export interface Delivery {
  id: string
  eventType: string
  status: 'pending' | 'delivered' | 'failed'
  attempts: number
  nextAttemptAt: string | null
  lastStatusCode: number | null
  lastError: string | null
  createdAt: string
  deliveredAt: string | null
  payload: unknown
  attemptLog: DeliveryAttempt[]
}

export interface Page<T> {
  data: T[]
  meta: { total: number; page: number; pageSize: number; totalPages: number }
}

export const alertMetrics = ['pageviews', 'sessions', 'visitors', 'custom_events', 'errors'] as const
export type AlertMetric = (typeof alertMetrics)[number]

export interface AlertRuleInput {
  name: string
  metric: AlertMetric
  eventName: string | null
  windowMinutes: number
  comparison: 'above' | 'below'
  threshold: number
  relative: boolean
  enabled: boolean
}

export interface AlertRule extends AlertRuleInput {
  id: string
  siteId: number
  state: 'ok' | 'triggered'
  lastValue: number | null
  lastEvaluatedAt: string | null
  lastTriggeredAt: string | null
  createdAt: string
}

/** One arm of an A/B experiment; exactly one variant of an experiment is the control. */
export interface ExperimentVariant {
  name: string
  control: boolean
}

/** 'draft', 'running' or 'completed' (informative: results are computed in every state). */
export type ExperimentStatus = 'draft' | 'running' | 'completed'

/** An A/B experiment of a site (`/api/sites/{siteId}/experiments`). */
export interface Experiment {
  experimentId: number
  siteId: number
  /** Slug matched against the exposure event's `properties.experiment`. */
  key: string
  name: string
  description: string | null
  variants: ExperimentVariant[]
  /** A goal of the site; null once that goal has been deleted. */
  goalId: number | null
  status: ExperimentStatus
  createdAt: string
  updatedAt: string
}

/** The body of a create (all fields) or an update. */
export interface ExperimentInput {
  name: string
  key: string
  description: string | null
  variants: ExperimentVariant[]
  goalId: number
  status: ExperimentStatus
}

/** A goal as the experiment form lists it. */
export interface GoalChoice {
  goalId: number
  name: string
}
