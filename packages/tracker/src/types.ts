/**
 * Shapes shared by the tracker's modules: the body of `POST /api/track` as the script sends it, the
 * site switches of `GET /api/sites/{id}/tracker-config`, and the `window.pathlight` API.
 */

/** The event types of the tracking endpoint. */
export type EventType =
  | 'pageview'
  | 'custom_event'
  | 'performance'
  | 'outbound'
  | 'error'
  | 'engagement'
  | 'heatmap_click'

/**
 * The public, non-secret switches of a site, as `GET /api/sites/{id}/tracker-config` answers them.
 * A switch missing from the answer (unknown site, network error) counts as off.
 */
export interface TrackerConfig {
  trackOutbound: boolean
  trackErrors: boolean
  webVitals: boolean
  trackUrlParams: boolean
  /** Session replay on: the core loads the recorder chunk (when `replaySampleRate` is above 0). */
  sessionReplay: boolean
  /** The share of sessions the server records, 0-1; at 0 the recorder is not even loaded. */
  replaySampleRate: number
  /** Heatmaps on: the core loads the heatmap chunk, which records clicks against the clicked element. */
  heatmaps: boolean
}

/** A switch that gates one kind of event. */
export type Feature = 'trackOutbound' | 'trackErrors' | 'webVitals'

/** Web vitals of one page load: LCP, INP, FCP, TTFB in milliseconds (integers), CLS unitless. */
export interface Vitals {
  lcp?: number
  cls?: number
  inp?: number
  fcp?: number
  ttfb?: number
}

/**
 * An `engagement` event's figures: the pageview's deepest scroll so far (percent of the page's height,
 * 0-100), the engaged milliseconds since its previous engagement event, and on an SPA navigation the
 * tracked path of the page left (the current one otherwise).
 */
export interface EngagementFields {
  scroll_depth: number
  engagement_time: number
  pathname?: string
}

/**
 * A `heatmap_click` event's figures: the clicked element's selector path, the click's position inside
 * the element's box as fractions (0-1, from its left and top edges), the viewport's width class, whether
 * it was a rage click (the third or later within a second on the element) or a dead click (no
 * navigation, DOM change or URL change within a second), and the tracked path of the page clicked.
 */
export interface HeatmapClickFields {
  selector: string
  click_x: number
  click_y: number
  viewport: 'desktop' | 'tablet' | 'mobile'
  rage_click: boolean
  dead_click: boolean
  pathname: string
}

/** What an event adds to the page fields: a name, a properties JSON object string, vitals, engagement or a heatmap click. */
export interface EventFields extends Vitals, Partial<EngagementFields>, Partial<HeatmapClickFields> {
  event_name?: string
  /** A JSON object as a string (at most 2048 characters, 4096 for errors; longer is refused). */
  properties?: string
}

/** Custom event properties: a flat object of strings, numbers or booleans, sent as JSON. */
export type Properties = Record<string, unknown>

/** The queue of the stub snippet: one `arguments` of `pathlight.event(name, properties)` per call. */
export type StubCall = ArrayLike<unknown>

/** `window.pathlight` once the script runs. */
export interface PathlightApi {
  /** Record a custom event; `properties` must be a plain object when given. */
  event(name: string, properties?: Properties): void
  /** Internal: the web-vitals chunk hands over the page's vitals here (sends a `performance` event). */
  _v?(vitals: Vitals): void
  /** Internal: the engagement chunk hands over a pageview's figures here (sends an `engagement` event). */
  _g?(fields: EngagementFields): void
  /** Internal, set by the engagement chunk: called with the path left before an SPA navigation's pageview. */
  _e?(pathname: string): void
  /** Internal: the heatmap chunk hands over one click here (sends a `heatmap_click` event). */
  _h?(fields: HeatmapClickFields): void
  /** Internal: what the core hands the replay chunk before adding it (see `load-replay.ts`). */
  _r?: ReplayHandoff
}

/** The core's hand-over to the replay chunk: its script tag (site id, attributes) and the site's config. */
export interface ReplayHandoff {
  script: HTMLScriptElement
  config: Partial<TrackerConfig>
}

/** `window.pathlight` before the script runs: the stub snippet, whose calls wait in `q`. */
export interface PathlightStub {
  q?: StubCall[]
}

declare global {
  interface Window {
    pathlight?: PathlightApi & PathlightStub
  }
  interface Navigator {
    /** Global Privacy Control (Chromium with the setting, Firefox, Brave); undefined elsewhere. */
    readonly globalPrivacyControl?: boolean
  }
  /** The file name (relative to the script's URL) of the web-vitals chunk, set by the build. */
  const __VITALS_FILE__: string
  /** The file name (relative to the script's URL) of the engagement chunk, set by the build. */
  const __ENGAGEMENT_FILE__: string
  /** The file name (relative to the script's URL) of the heatmap chunk, set by the build. */
  const __HEATMAP_FILE__: string
  /** The file name (relative to the script's URL) of the session replay chunk, set by the build. */
  const __REPLAY_FILE__: string
}
