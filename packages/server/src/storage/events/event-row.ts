import type { EventType } from '@pathlight/protocol'

/**
 * One row of the `events` table: a tracked event after enrichment. Field names are the column names.
 * Strings are '' when unknown (ClickHouse columns are not Nullable except the web-vitals metrics,
 * where "not measured" differs from 0). `timestamp` is an ISO 8601 UTC string with milliseconds.
 */
export interface EventRow {
  /** UUIDv4; the stable identity of the event (cursor paging, de-duplication). */
  event_id: string
  site_id: number
  timestamp: string
  type: EventType
  session_id: string
  user_id: string
  hostname: string
  pathname: string
  querystring: string
  page_title: string
  referrer: string
  /** Host of the referrer, www. folded; '' when none. */
  referrer_domain: string
  channel: string
  utm_source: string
  utm_medium: string
  utm_campaign: string
  utm_term: string
  utm_content: string
  browser: string
  browser_version: string
  operating_system: string
  operating_system_version: string
  device_type: string
  screen_width: number
  screen_height: number
  language: string
  /** ISO 3166-1 alpha-2, upper case; '' when unknown. */
  country: string
  region: string
  city: string
  lat: number | null
  lon: number | null
  event_name: string
  /** The JSON object string from the tracking body ('' when none). */
  properties: string
  /** Web vitals (type performance): LCP, INP, FCP, TTFB in milliseconds; CLS unitless. */
  lcp: number | null
  cls: number | null
  inp: number | null
  fcp: number | null
  ttfb: number | null
  /** Type error: the error's message, stack, source file, 1-based line and column (0 when unknown). */
  error_message: string
  error_stack: string
  error_file: string
  error_line: number
  error_column: number
}

/** The event types of stored events: the protocol's (those of the tracking endpoint). */
export { type EventType, eventTypes } from '@pathlight/protocol'
