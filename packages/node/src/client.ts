/**
 * The client: one instance per site and API key, sending pageviews and custom events from your server to
 * the tracking endpoint, one request per call.
 */
import { createDebugLog, type DebugLog } from './debug-log.js'
import { getReport } from './get-report.js'
import { type ResolvedOptions, resolveOptions } from './options.js'
import { postTrack } from './post-track.js'
import type { AnnotationsAnswer, ReportRange, StatsAnswer, StatsOptions } from './report-types.js'
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
  async stats(options: StatsOptions = {}): Promise<StatsAnswer> {
    return getReport<StatsAnswer>(
      this.#options,
      'stats',
      {
        start_date: options.startDate,
        end_date: options.endDate,
        time_zone: options.timeZone,
        filters: options.filters && options.filters.length > 0 ? JSON.stringify(options.filters) : undefined,
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
