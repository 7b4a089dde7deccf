/**
 * The closed sets of values the wire shapes use, as constant tuples (`z.enum(...)` takes them, `.map`
 * lists them in a form). This module imports nothing, so a browser bundle may import it for its values
 * without pulling in zod.
 */

/** Roles in an organization, strongest first. */
export const roles = ['owner', 'admin', 'member'] as const
export type Role = (typeof roles)[number]

/**
 * What an API key may do: `track` only send events (`POST /api/track`); `read` reports, the v1 API and
 * every other read, no changes and no tracking; `logs` only send a site's access log
 * (`POST /api/sites/{siteId}/logs`); `full` everything its user may do.
 */
export const API_KEY_SCOPES = ['track', 'read', 'logs', 'full', 'mcp:read', 'mcp:write'] as const
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number]

/** Administrative actions of the audit trail. */
export const auditActions = [
  'site.created',
  'site.deleted',
  'site.config_changed',
  'private_link.generated',
  'private_link.revoked',
  'member.added',
  'member.removed',
  'member.role_changed',
  'goal.created',
  'goal.updated',
  'goal.deleted',
  'experiment.created',
  'experiment.updated',
  'experiment.deleted',
  'webhook.created',
  'webhook.updated',
  'webhook.secret_rotated',
  'webhook.deleted',
  'webhook.redelivered',
  'alert_rule.created',
  'alert_rule.updated',
  'alert_rule.deleted',
  'email_report.created',
  'email_report.updated',
  'email_report.deleted',
  'site.updated',
  'organization.renamed',
  'events.imported',
  'events.expired',
  'imported_days.removed',
  'funnel.created',
  'funnel.updated',
  'funnel.deleted',
  'replay.deleted',
  'visitor.exported',
  'visitor.erased',
  'annotation.created',
  'annotation.updated',
  'annotation.deleted',
  'segment.created',
  'segment.updated',
  'segment.deleted',
  'invitation.created',
  'invitation.revoked',
  'invitation.accepted',
  'invitation.declined',
  'sso.signed_in',
  'sso.account_linked',
  'sso.refused',
  'sso.settings_changed',
  'sso.provider_changed',
  'sso.provider_removed',
  'mcp.tool_called',
] as const
export type AuditAction = (typeof auditActions)[number]

/** The events a webhook can subscribe to (payloads: `webhooks/webhook-events.ts` of the server). */
export const webhookEventTypes = [
  'session.created',
  'event.tracked',
  'goal.converted',
  'alert.triggered',
] as const
export type WebhookEventType = (typeof webhookEventTypes)[number]

/** What an alert rule counts over its window. */
export const alertMetrics = [
  'pageviews',
  'sessions',
  'visitors',
  'custom_events',
  'errors',
  'goal_conversions',
  'crawler_new_agents',
  'crawler_requests',
] as const
export type AlertMetric = (typeof alertMetrics)[number]

/** The alert metrics counted over a site's crawler requests (its ingested access logs). */
export const crawlerAlertMetrics = ['crawler_new_agents', 'crawler_requests'] as const
export type CrawlerAlertMetric = (typeof crawlerAlertMetrics)[number]

/** What a crawler agent does with what it fetches (as `crawlerCategoryNames`, for browser code). */
export const crawlerCategoryList = [
  'ai_training',
  'ai_search',
  'ai_assistant',
  'search_engine',
  'seo',
  'monitor',
  'other',
] as const

/** The categories a crawler alert rule may be limited to: one of them, or `ai` (the three AI ones). */
export const alertCrawlerCategories = ['ai', ...crawlerCategoryList] as const
export type AlertCrawlerCategory = (typeof alertCrawlerCategories)[number]

/** How often a scheduled e-mail report goes out: the last full week (Monday to Sunday) or month. */
export const emailReportFrequencies = ['weekly', 'monthly'] as const
export type EmailReportFrequency = (typeof emailReportFrequencies)[number]

/**
 * A report recipient's state: `pending` until the address confirms from its link (addresses outside
 * the site's organization), `active` while it gets the reports, `unsubscribed` after its link stopped them.
 */
export const emailReportRecipientStatuses = ['pending', 'active', 'unsubscribed'] as const

/** Experiment lifecycle states. Informative only: results are computed in every state. */
export const experimentStatuses = ['draft', 'running', 'completed'] as const
/** 'draft', 'running' or 'completed'. */
export type ExperimentStatus = (typeof experimentStatuses)[number]

/** The two kinds of goal. */
export const goalTypes = ['path', 'event'] as const
/** 'path' or 'event'. */
export type GoalType = (typeof goalTypes)[number]

/**
 * The event types of the tracking endpoint and of stored events. `heatmap_click` is one click recorded
 * against the clicked element for heatmaps (the tracker's heatmap chunk, site switch `heatmaps`).
 */
export const eventTypes = [
  'pageview',
  'custom_event',
  'performance',
  'outbound',
  'error',
  'engagement',
  'heatmap_click',
] as const
export type EventType = (typeof eventTypes)[number]

/**
 * The interaction types Rybbit's web SDK sends (button clicks, copies, form submits and input changes).
 * The tracking endpoint takes them and stores each as a `custom_event` named after its type, with its
 * properties, so every report of custom events and properties counts them.
 */
export const interactionEventTypes = ['button_click', 'copy', 'form_submit', 'input_change'] as const
export type InteractionEventType = (typeof interactionEventTypes)[number]

/** The viewport width classes of heatmap clicks: under 768 CSS px mobile, under 1024 tablet, else desktop. */
export const heatmapViewports = ['desktop', 'tablet', 'mobile'] as const
export type HeatmapViewport = (typeof heatmapViewports)[number]

/** The `type` values the tracking endpoint takes: the stored types and the interaction types. */
export const trackEventTypes = [...eventTypes, ...interactionEventTypes] as const
export type TrackEventType = (typeof trackEventTypes)[number]

/**
 * The channels the server assigns an event (its ingest's `enrich/channel.ts` says how; an event
 * without one has ''): the values an exported line's `channel` may take.
 */
export const channelNames = [
  'Direct',
  'Organic Search',
  'Paid Search',
  'Organic Social',
  'Paid Social',
  'Email',
  'Affiliates',
  'Display',
  'Video',
  'Referral',
  'Internal',
  'AI Assistants',
] as const

/** The web vitals, in the order reports show them. */
export const webVitalNames = ['lcp', 'inp', 'cls', 'fcp', 'ttfb'] as const
/** One metric: a column of `events`. */
export type WebVitalName = (typeof webVitalNames)[number]

/**
 * Every report filter parameter, in the order error messages list them: the event filters, then the
 * session filters (`entry_page`, `exit_page`).
 */
export const filterParameters = [
  'pathname',
  'hostname',
  'referrer',
  'channel',
  'country',
  'region',
  'city',
  'browser',
  'operating_system',
  'device_type',
  'language',
  'event_name',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'entry_page',
  'exit_page',
] as const
/** Any filter parameter. */
export type FilterParameter = (typeof filterParameters)[number]

/** Comparison types of a filter (semantics: `query/filters.ts` of the server). */
export const filterTypes = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'starts_with',
  'regex',
] as const
/** One comparison type. */
export type FilterType = (typeof filterTypes)[number]

/**
 * The comparison types of a custom property filter (`properties.<key>`): every type above, and
 * `is_set` / `is_not_set` (whether the event carries the key; their `value` is `[]`).
 */
export const propertyFilterTypes = [...filterTypes, 'is_set', 'is_not_set'] as const
/** One comparison type of a property filter. */
export type PropertyFilterType = (typeof propertyFilterTypes)[number]
/** The prefix of a custom property filter's parameter: `properties.plan` filters the key `plan`. */
export const PROPERTY_FILTER_PREFIX = 'properties.'
/** Bound on a property key's length, in characters. */
export const MAX_PROPERTY_KEY_LENGTH = 100

/** What a report compares its range with (`compare` of the analytics reads). */
export const compareModes = ['previous_period', 'previous_year', 'custom', 'none'] as const
/** One comparison mode. */
export type CompareMode = (typeof compareModes)[number]

/** Bucket sizes of a report's time series (weeks start on Monday). */
export const seriesBuckets = ['hour', 'day', 'week', 'month'] as const
export type SeriesBucket = (typeof seriesBuckets)[number]

/**
 * The breakdown dimensions (`{name}` of `GET .../breakdown/{name}`), in the order the reference lists
 * them; the server's `query/breakdown.ts` says how each is counted.
 */
export const breakdownNames = [
  'pages',
  'referrers',
  'channels',
  'entry_pages',
  'exit_pages',
  'countries',
  'browsers',
  'operating_systems',
  'device_types',
  'regions',
  'cities',
  'languages',
  'utm_source',
  'utm_medium',
  'utm_campaign',
] as const
export type BreakdownName = (typeof breakdownNames)[number]

/** How the reports show a breakdown: heading, tab, the filter a click on a row adds, the count it ranks by. */
export interface BreakdownDimension {
  /** The column header ('UTM source'). */
  label: string
  /** The tab ('Source'). */
  tab: string
  /** The filter parameter that keeps a row's value. */
  filter: FilterParameter
  /** The count the rows are ranked by (always among those answered). */
  metric: 'visitors' | 'pageviews'
}

/** Every breakdown dimension's labels and filter: the dashboard's cards and the server's comparisons read them. */
export const breakdownDimensions = {
  pages: { label: 'Top pages', tab: 'Top', filter: 'pathname', metric: 'pageviews' },
  referrers: { label: 'Referrers', tab: 'Referrers', filter: 'referrer', metric: 'visitors' },
  channels: { label: 'Channels', tab: 'Channels', filter: 'channel', metric: 'visitors' },
  entry_pages: { label: 'Entry pages', tab: 'Entry', filter: 'entry_page', metric: 'visitors' },
  exit_pages: { label: 'Exit pages', tab: 'Exit', filter: 'exit_page', metric: 'visitors' },
  countries: { label: 'Countries', tab: 'Countries', filter: 'country', metric: 'visitors' },
  browsers: { label: 'Browsers', tab: 'Browsers', filter: 'browser', metric: 'visitors' },
  operating_systems: {
    label: 'Operating systems',
    tab: 'OS',
    filter: 'operating_system',
    metric: 'visitors',
  },
  device_types: { label: 'Device types', tab: 'Types', filter: 'device_type', metric: 'visitors' },
  regions: { label: 'Regions', tab: 'Regions', filter: 'region', metric: 'visitors' },
  cities: { label: 'Cities', tab: 'Cities', filter: 'city', metric: 'visitors' },
  languages: { label: 'Languages', tab: 'Languages', filter: 'language', metric: 'visitors' },
  utm_source: { label: 'UTM source', tab: 'Source', filter: 'utm_source', metric: 'visitors' },
  utm_medium: { label: 'UTM medium', tab: 'Medium', filter: 'utm_medium', metric: 'visitors' },
  utm_campaign: { label: 'UTM campaign', tab: 'Campaign', filter: 'utm_campaign', metric: 'visitors' },
} as const satisfies Record<BreakdownName, BreakdownDimension>

/**
 * What people call each report of a site, by the name the report registry
 * (`contracts/report-registry.ts`) and the batch parts use: the dashboard's headings and tabs read
 * them, and the registry's `label` is this.
 */
export const reportLabels = {
  summary: 'Site',
  stats: 'Headline figures',
  series: 'Time series',
  breakdown: 'Breakdown',
  sessions: 'Sessions',
  'session-events': 'Session events',
  events: 'Events',
  'event-names': 'Custom events',
  'web-vitals': 'Web vitals',
  'page-stats': 'Pages',
  live: 'Live visitors',
  engagement: 'Engaged time',
  'error-names': 'JavaScript errors',
  'error-events': 'Error occurrences',
  'error-bucketed': 'Error over time',
  journeys: 'Journeys',
  retention: 'Retention',
  'v1-events': 'Events',
  'v1-revenue': 'Revenue',
  properties: 'Custom properties',
  'property-breakdown': 'Custom property values',
  crawlers: 'Crawlers',
  heatmap: 'Heatmap',
  goals: 'Goals',
  'goal-sessions': 'Goal sessions',
  'saved-funnel': 'Saved funnel',
  'saved-funnel-sessions': 'Saved funnel sessions',
  'funnel-figures': 'Funnel figures',
  'funnel-sessions': 'Funnel sessions',
} as const

/** The groupings of the web vitals report (`by` of `GET .../web-vitals`). */
export const webVitalGroupings = ['pathname', 'device_type'] as const
export type WebVitalGrouping = (typeof webVitalGroupings)[number]

/**
 * The counts a breakdown row may carry (`metrics` of `GET .../breakdown/{name}`): fewer counts answer
 * faster (each distinct count is a set of hashes to build or merge).
 */
export const breakdownMetrics = ['visitors', 'sessions', 'pageviews'] as const
export type BreakdownMetric = (typeof breakdownMetrics)[number]

/**
 * The counts an event name's row may carry (`metrics` of `GET .../event-names`): `events`, which ranks
 * the names, always; sessions and visitors each a set of hashes to merge, most of the report's time.
 */
export const eventNameMetrics = ['events', 'sessions', 'visitors'] as const
export type EventNameMetric = (typeof eventNameMetrics)[number]

/**
 * The counts a time series may carry (`metrics` of `GET .../series`): the dashboard's chart shows one
 * at a time, and each of visitors and sessions is a merge of a set of hashes per hour of the range.
 */
export const seriesMetrics = ['visitors', 'sessions', 'pageviews'] as const
export type SeriesMetric = (typeof seriesMetrics)[number]

/** What the v1 pages report sorts by (`sort` of `GET /api/v1/sites/{siteId}/pages`). */
export const pageSortFields = [
  'pageviews',
  'visitors',
  'entries',
  'exits',
  'bounce_rate',
  'time_on_page',
] as const
export type PageSortField = (typeof pageSortFields)[number]

/** Period sizes of a retention report: calendar days, weeks (Monday to Sunday) and months. */
export const retentionPeriods = ['day', 'week', 'month'] as const
export type RetentionPeriod = (typeof retentionPeriods)[number]

/** What the identified users list (`GET /api/v1/sites/{siteId}/users`) sorts by. */
export const userSortKeys = ['lastSeen', 'firstSeen', 'sessions', 'pageviews', 'events', 'userId'] as const
export type UserSortKey = (typeof userSortKeys)[number]
