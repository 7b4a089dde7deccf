/**
 * Every analytics metric, defined once: its ClickHouse expression and, in its docstring, what it
 * means. Reports (overview, breakdowns, goals, goal sessions) compose these; none defines its own.
 *
 * Terms:
 * - An event is in the range when `from <= timestamp < to` (see `params.ts`: whole calendar days in
 *   the request's time zone).
 * - A session is a `session_id` (ingest ends one after more than 30 minutes without an event). Only its events in
 *   the range count: a session that crosses midnight at the range's edge is cut there.
 * - A visitor is a `user_id` (the body's `user_id`, else an anonymous hash of site, IP and user agent).
 * - A session's first and last event are first and last in `EVENT_ORDER`: by time, then by event id.
 *
 * Two levels, so that the expressions of one level are evaluated over the right rows:
 * - `sessionColumns`: aggregates over one session's events, for `SELECT ... GROUP BY session_id`.
 * - `sessionMetrics`: aggregates over those per-session rows (one row per session).
 * - `eventMetrics`: aggregates over event rows directly (breakdowns by an event column).
 * Aliases never reuse an `events` column name: ClickHouse substitutes aliases everywhere in a query
 * level, and a filter on `country` must keep meaning the column, not a session's first country.
 *
 * Sessions and visitors are keyed by the 64-bit CityHash of their id (`SESSION_KEY`, `VISITOR_KEY`):
 * grouping and counting distinct UInt64 values is much faster than on 36-character strings
 * (bench/README.md "query: the analytics read side"). Counts are exact up to a
 * hash collision, whose chance among n ids is about n^2 / 2^65 (3 in a million for 10 M sessions).
 */

/** The key sessions are grouped and counted by. */
export const SESSION_KEY = 'cityHash64(session_id)'
/** The key visitors are counted by. */
export const VISITOR_KEY = 'cityHash64(user_id)'

/**
 * The one order of a session's events, for every report, rollup and export: by `timestamp`, then by
 * `event_id` as its text sorts (the UUID's 128 bits read big-endian: `toUInt128`; ClickHouse's own
 * UUID comparison puts the last 8 bytes first, which is not the text's order). Events of the same
 * millisecond (every access-log import, every import with second precision) thus always come in the
 * same order, and in the same order again after a site's export is imported elsewhere: the id travels
 * with the event (ingest takes the client's `event_id` or draws a random one).
 */
export const EVENT_ORDER = 'timestamp, toUInt128(event_id)'

/**
 * `EVENT_ORDER` as one UInt256 for `argMin`/`argMax`/`arraySort`: (epoch ms + 2^62) × 2^128 + the
 * id's 128 bits. One native number compares in a single step (an `argMin` keyed by the
 * (timestamp, id) tuple measured much slower: bench/README.md "One order for a session's events"); the
 * session rollups keep the same number in the top of theirs
 * (`storage/events/migrations/008-event-order.ts`), so both pick the same event.
 */
export const EVENT_ORDER_KEY =
  'bitOr(bitShiftLeft(toUInt256(toUnixTimestamp64Milli(timestamp) + 4611686018427387904), 128), toUInt256(toUInt128(event_id)))'

/** An expression with its meaning. */
export interface MetricDefinition {
  sql: string
  /** The definition, in words (the same as the entry's docstring). */
  means: string
}

/** Per-session aggregates (`GROUP BY session_id` over the session's events in the range). */
export const sessionColumns = {
  /** The session's id (the text; sessions are grouped by its hash). */
  session_uuid: 'any(session_id)',
  /** The session's visitor (constant within a session: ingest keys sessions by site and visitor). */
  visitor_id: 'any(user_id)',
  /** Hash of the session's visitor, for counting distinct visitors. */
  visitor_key: 'cityHash64(any(user_id))',
  /** Pageview events of the session. */
  pageview_count: "countIf(type = 'pageview')",
  /** Interactions: custom events and outbound-link clicks (not web vitals or errors, which are automatic). */
  interaction_count: "countIf(type IN ('custom_event', 'outbound'))",
  /** First event's time (DateTime64(3, 'UTC')). */
  started_at: 'min(timestamp)',
  /** Last event's time. */
  ended_at: 'max(timestamp)',
  /** Whole seconds from the first to the last event, rounded down; 0 for a single event. */
  duration_seconds:
    'intDiv(toUnixTimestamp64Milli(max(timestamp)) - toUnixTimestamp64Milli(min(timestamp)), 1000)',
  /** Pathname of the first pageview (`EVENT_ORDER`); '' when the session has none in the range. */
  entry_page: `argMinIf(pathname, ${EVENT_ORDER_KEY}, type = 'pageview')`,
  /** Pathname of the last pageview (`EVENT_ORDER`); '' when the session has none in the range. */
  exit_page: `argMaxIf(pathname, ${EVENT_ORDER_KEY}, type = 'pageview')`,
  /** Referrer URL of the first event (the page that brought the visitor). */
  entry_referrer: `argMin(referrer, ${EVENT_ORDER_KEY})`,
  /** Referrer domain of the first event ('www.' folded; '' for none). */
  entry_referrer_domain: `argMin(referrer_domain, ${EVENT_ORDER_KEY})`,
  /** Acquisition channel of the first event. */
  entry_channel: `argMin(channel, ${EVENT_ORDER_KEY})`,
  /**
   * UTM source, medium and campaign of the first event ('' = none): a session's campaign is its
   * landing page's, as its channel is, so a later page without the tags does not count it again.
   */
  entry_utm_source: `argMin(utm_source, ${EVENT_ORDER_KEY})`,
  entry_utm_medium: `argMin(utm_medium, ${EVENT_ORDER_KEY})`,
  entry_utm_campaign: `argMin(utm_campaign, ${EVENT_ORDER_KEY})`,
  /** Country (ISO 3166-1 alpha-2), browser, operating system and device type of the first event. */
  entry_country: `argMin(country, ${EVENT_ORDER_KEY})`,
  entry_browser: `argMin(browser, ${EVENT_ORDER_KEY})`,
  entry_operating_system: `argMin(operating_system, ${EVENT_ORDER_KEY})`,
  entry_device_type: `argMin(device_type, ${EVENT_ORDER_KEY})`,
} as const satisfies Record<string, string>

/**
 * Metrics over per-session rows. They read the per-session columns `visitor_key`, `pageview_count`,
 * `interaction_count`, `duration_seconds` and `matched_pageview_count` (the session's pageviews that
 * pass the event filters; equal to `pageview_count` without filters).
 */
export const sessionMetrics = {
  /** Distinct visitors (user_id) with at least one counted session. */
  visitors: { sql: 'uniqExact(visitor_key)', means: 'distinct visitors of the counted sessions' },
  /** Counted sessions: sessions with an event in the range that passes the filters. */
  sessions: { sql: 'count()', means: 'sessions with at least one event in the range passing the filters' },
  /** Pageviews that pass the event filters. */
  pageviews: { sql: 'sum(matched_pageview_count)', means: 'pageview events passing the filters' },
  /**
   * Bounce rate, a fraction 0..1: sessions with exactly one pageview and no interaction (custom event
   * or outbound click), divided by all counted sessions; 0 when there are none. A session without any
   * pageview (e.g. server-side events only) is not a bounce but counts in the denominator.
   */
  bounce_rate: {
    sql: 'if(count() = 0, 0, countIf(pageview_count = 1 AND interaction_count = 0) / count())',
    means: 'single-pageview sessions without interactions / sessions, a fraction',
  },
  /** Average session duration in seconds (mean of whole-second durations); 0 when no sessions. */
  session_duration: {
    sql: 'if(count() = 0, 0, avg(duration_seconds))',
    means: 'mean seconds from first to last event of a session',
  },
  /** Pageviews per session: all pageviews of the counted sessions / sessions; 0 when no sessions. */
  pages_per_session: {
    sql: 'if(count() = 0, 0, sum(pageview_count) / count())',
    means: 'pageviews of counted sessions / sessions',
  },
} as const satisfies Record<string, MetricDefinition>

/** Metrics over event rows (for breakdowns by an event column). */
export const eventMetrics = {
  /** Distinct visitors among the events. */
  visitors: { sql: `uniqExact(${VISITOR_KEY})`, means: 'distinct visitors among the counted events' },
  /** Distinct sessions among the events. */
  sessions: { sql: `uniqExact(${SESSION_KEY})`, means: 'distinct sessions among the counted events' },
  /** Pageview events among the events. */
  pageviews: { sql: "countIf(type = 'pageview')", means: 'pageview events among the counted events' },
} as const satisfies Record<string, MetricDefinition>

/** Which event rows count as a pageview, a custom event, an error, an engagement report. */
export const eventTypeConditions = {
  pageview: "type = 'pageview'",
  custom_event: "type = 'custom_event'",
  error: "type = 'error'",
  engagement: "type = 'engagement'",
} as const
