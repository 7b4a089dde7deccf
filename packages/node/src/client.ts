/**
 * The client: one instance per site and API key, sending pageviews and custom events from your server to
 * the tracking endpoint, one request per call.
 */
import { createDebugLog, type DebugLog } from './debug-log.js'
import { getReport, postQuery } from './get-report.js'
import { type ResolvedOptions, resolveOptions } from './options.js'
import { postTrack } from './post-track.js'
import type { QueryAnswer, QueryRequest } from './query-types.js'
import type {
  AnnotationsAnswer,
  PropertiesAnswer,
  PropertiesOptions,
  PropertyBreakdownAnswer,
  PropertyBreakdownOptions,
  ReportFilter,
  ReportRange,
  StatsAnswer,
  StatsOptions,
} from './report-types.js'
import type {
  EventProperties,
  ObjectOnly,
  PathlightOptions,
  PropertiesOf,
  TrackPayload,
  TrackResponse,
} from './types.js'
import { validateEventName, validatePayload, validateProperties } from './validate.js'

/**
 * Server-side Pathlight client. Each call is one `POST {analyticsHost}/track` with the API key; it resolves
 * with the server's body once the event is committed (or excluded by the site's configuration), and rejects
 * with a `PathlightError` otherwise (after bounded retries for network errors, 5xx and 429).
 *
 * @example
 * const pathlight = new Pathlight({ analyticsHost: 'https://analytics.example.com/api', siteId: 1, apiKey })
 * await pathlight.pageview({ pathname: '/pricing', ip_address: req.ip, user_agent: req.get('user-agent') })
 */
export class Pathlight {
  readonly #options: ResolvedOptions
  readonly #log: DebugLog

  /**
   * @param options see {@link PathlightOptions}; `analyticsHost`, `siteId` and `apiKey` are required
   * @throws TypeError naming the option when one is missing or invalid (e.g. `analyticsHost is not a URL`)
   */
  constructor(options: PathlightOptions) {
    this.#options = resolveOptions(options)
    this.#log = createDebugLog(this.#options.debug, this.#options.apiKey)
  }

  /**
   * The site's headline figures over a range against the compared range (`GET .../v1/sites/{siteId}/stats`;
   * needs a key that may read).
   * @param options the range, `filters` and a saved `segment`, a time-series `bucket`, and the comparison
   *   (`compare`: `previous_period` by default, `previous_year`, `custom` with
   *   `compareStartDate`/`compareEndDate`, or `none`; `matchDayOfWeek`)
   * @returns `{data: {current, previous?, change?, series?}, meta}`, `meta.previousStartDate`/`EndDate`
   *   naming the compared days
   * @throws PathlightInvalidPayloadError for a parameter the server refuses (its `details` name it);
   *   other `PathlightError`s as for tracking
   */
  /**
   * Any figures of the site through the Query API (`POST .../v2/query`, Plausible's Stats API v2
   * request and answer; needs a key that may read): metrics by dimensions over a range, filtered.
   * @param body the query; `site_id` defaults to the client's site
   * @returns `{results: [{dimensions, metrics, comparison?}], meta, query}`
   * @throws PathlightInvalidPayloadError for a query the server refuses (its message names the
   *   field); other `PathlightError`s as for the reports
   * @example
   * await pathlight.query({ metrics: ['visitors'], date_range: '7d', dimensions: ['visit:country'] })
   */
  async query(body: QueryRequest): Promise<QueryAnswer> {
    return postQuery<QueryAnswer>(this.#options, { site_id: this.#options.siteId, ...body }, this.#log)
  }

  async stats(options: StatsOptions = {}): Promise<StatsAnswer> {
    return getReport<StatsAnswer>(
      this.#options,
      'stats',
      {
        start_date: options.startDate,
        end_date: options.endDate,
        time_zone: options.timeZone,
        filters: filtersParam(options.filters),
        segment: options.segment,
        bucket: options.bucket,
        compare: options.compare,
        compare_start_date: options.compareStartDate,
        compare_end_date: options.compareEndDate,
        match_day_of_week: options.matchDayOfWeek,
      },
      this.#log,
    )
  }

  /**
   * The site's annotations (notes on days of its chart) on the days asked for, each side open when absent
   * (`GET .../v1/sites/{siteId}/annotations`).
   * @returns `{success: true, data: [{id, date, text, createdAt, updatedAt}], meta: {total}}`, by day
   * @throws PathlightError as {@link Pathlight.stats}
   */
  async annotations(days: Pick<ReportRange, 'startDate' | 'endDate'> = {}): Promise<AnnotationsAnswer> {
    return getReport<AnnotationsAnswer>(
      this.#options,
      'annotations',
      { start_date: days.startDate, end_date: days.endDate },
      this.#log,
    )
  }

  /**
   * The custom property keys the site's custom events carried in a range, with the events carrying each
   * and their distinct visitors (`GET .../v1/sites/{siteId}/properties`).
   * @param options the range, `filters`, a saved `segment`, `eventName` (only that custom event), and
   *   the page (`page`, `limit`)
   * @returns `{data: [{key, events, visitors}], meta: {total, page, pageSize, totalPages}}`, most events
   *   first
   * @throws PathlightError as {@link Pathlight.stats}
   */
  async properties(options: PropertiesOptions = {}): Promise<PropertiesAnswer> {
    return getReport<PropertiesAnswer>(this.#options, 'properties', listQuery(options), this.#log)
  }

  /**
   * One custom property's values over a range, each with the custom events carrying it and their distinct
   * visitors (`GET .../v1/sites/{siteId}/breakdown/properties`). Values are in canonical text: 3, "3"
   * and 3.0 are one row "3"; an object or array is its JSON text.
   * @param options `property` (the key), then as {@link Pathlight.properties}
   * @returns `{data: [{value, events, visitors}], meta: {total, page, pageSize, totalPages}}`, most
   *   events first
   * @throws PathlightInvalidPayloadError when `property` is missing or not a key the server accepts (1
   *   to 100 printable characters); other `PathlightError`s as {@link Pathlight.stats}
   */
  async propertyBreakdown(options: PropertyBreakdownOptions): Promise<PropertyBreakdownAnswer> {
    return getReport<PropertyBreakdownAnswer>(
      this.#options,
      'breakdown/properties',
      { ...listQuery(options), property: options.property },
      this.#log,
    )
  }

  /** The site id sent with every call, as a decimal string. */
  get siteId(): string {
    return this.#options.siteId
  }

  /**
   * Track a pageview.
   * @param payload page and visitor fields (see {@link TrackPayload}); forward the visitor's `ip_address`
   *   and `user_agent` for geolocation and browser detection
   * @returns the server's body: `{ success: true }`, or `{ success: true, tracked: false, reason }` when the
   *   site's configuration excluded the visitor
   * @throws TypeError before sending when the payload is invalid
   * @throws PathlightError (or a subclass) when the server refuses the event or cannot be reached
   */
  async pageview(payload?: TrackPayload): Promise<TrackResponse> {
    const fields = validatePayload(payload)
    return postTrack(this.#options, { site_id: this.#options.siteId, type: 'pageview', ...fields }, this.#log)
  }

  /**
   * Track a custom event.
   * @param eventName the event's name, e.g. `'signup'`: non-blank, at most 256 characters (checked by the
   *   server)
   * @param payload page and visitor fields, as for {@link Pathlight.pageview}
   * @param properties values that are strings, finite numbers, booleans or flat arrays of those; sent as the
   *   JSON object string the endpoint expects (at most 2048 characters, checked by the server)
   * @returns the server's body, as for {@link Pathlight.pageview}
   * @throws TypeError before sending when the name, payload or a property is invalid
   * @throws PathlightError (or a subclass) when the server refuses the event or cannot be reached
   */
  async event<P extends PropertiesOf<P> = EventProperties>(
    eventName: string,
    payload?: TrackPayload,
    properties?: ObjectOnly<P>,
  ): Promise<TrackResponse> {
    const name = validateEventName(eventName)
    const fields = validatePayload(payload)
    const serialized = validateProperties(properties)
    return postTrack(
      this.#options,
      {
        site_id: this.#options.siteId,
        type: 'custom_event',
        ...fields,
        event_name: name,
        ...(serialized === undefined ? {} : { properties: serialized }),
      },
      this.#log,
    )
  }
}

/** The `filters` parameter: the filters as JSON, or none when there are none. */
const filtersParam = (filters: readonly ReportFilter[] | undefined): string | undefined =>
  filters && filters.length > 0 ? JSON.stringify(filters) : undefined

/** The query of a list read: range, filters, segment, event name and page. */
const listQuery = (options: PropertiesOptions) => ({
  start_date: options.startDate,
  end_date: options.endDate,
  time_zone: options.timeZone,
  filters: filtersParam(options.filters),
  segment: options.segment,
  event_name: options.eventName,
  page: options.page,
  limit: options.limit,
})
