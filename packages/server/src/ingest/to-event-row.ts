/**
 * The event row as the payload alone defines it, before enrichment: page fields, the event name and
 * properties, web vitals (type performance), error fields (type error, from `properties`) and, for type
 * engagement, `properties` made of the body's `scroll_depth` and `engagement_time` (what the events
 * table's materialized columns of the same names read; see events migration 015), and for type
 * heatmap_click `properties` made of the click's fields (read by the `click_*` columns of events migration 017).
 */
import crypto from 'node:crypto'
import { type EventType, type InteractionEventType, interactionEventTypes } from '@pathlight/protocol'
import type { EventRow } from '../storage/events/event-row.js'
import { parsePropertiesObject, type TrackPayload } from './payload.js'

const isInteraction = (type: string): type is InteractionEventType =>
  (interactionEventTypes as readonly string[]).includes(type)

/**
 * The stored type and name of a payload's type: an interaction type (`button_click`, `copy`,
 * `form_submit`, `input_change`) is a custom event named after it unless the body names one.
 */
export function storedTypeOf(payload: Pick<TrackPayload, 'type' | 'event_name'>): {
  type: EventType
  eventName: string
} {
  if (isInteraction(payload.type)) {
    return { type: 'custom_event', eventName: payload.event_name?.trim() || payload.type }
  }
  return { type: payload.type, eventName: payload.event_name ?? '' }
}

export function toEventRow(payload: TrackPayload, siteId: number, now: number): EventRow {
  const properties =
    payload.type === 'engagement'
      ? JSON.stringify({
          scroll_depth: payload.scroll_depth ?? 0,
          engagement_time: payload.engagement_time ?? 0,
        })
      : payload.type === 'heatmap_click'
        ? heatmapClickProperties(payload)
        : (payload.properties ?? '')
  const stored = storedTypeOf(payload)
  const row: EventRow = {
    event_id: payload.event_id?.toLowerCase() ?? crypto.randomUUID(),
    site_id: siteId,
    timestamp: new Date(now).toISOString(),
    type: stored.type,
    session_id: '',
    user_id: '',
    hostname: (payload.hostname ?? '').toLowerCase(),
    pathname: payload.pathname || '/',
    querystring: '',
    page_title: payload.page_title ?? '',
    referrer: payload.referrer ?? '',
    referrer_domain: '',
    channel: '',
    utm_source: '',
    utm_medium: '',
    utm_campaign: '',
    utm_term: '',
    utm_content: '',
    browser: '',
    browser_version: '',
    operating_system: '',
    operating_system_version: '',
    device_type: '',
    screen_width: payload.screenWidth ?? 0,
    screen_height: payload.screenHeight ?? 0,
    language: payload.language ?? '',
    country: '',
    region: '',
    city: '',
    lat: null,
    lon: null,
    event_name: stored.eventName,
    properties,
    lcp: payload.type === 'performance' ? (payload.lcp ?? null) : null,
    cls: payload.type === 'performance' ? (payload.cls ?? null) : null,
    inp: payload.type === 'performance' ? (payload.inp ?? null) : null,
    fcp: payload.type === 'performance' ? (payload.fcp ?? null) : null,
    ttfb: payload.type === 'performance' ? (payload.ttfb ?? null) : null,
    error_message: '',
    error_stack: '',
    error_file: '',
    error_line: 0,
    error_column: 0,
  }
  if (payload.type === 'error' && properties !== '') {
    const p = parsePropertiesObject(properties) ?? {}
    row.error_message = asText(p.message, 2048)
    row.error_stack = asText(p.stack, 4096)
    row.error_file = asText(p.fileName, 2048)
    row.error_line = asLineNumber(p.lineNumber)
    row.error_column = asLineNumber(p.columnNumber)
  }
  return row
}

/**
 * A heatmap click's stored properties: `selector`, `x` and `y` (fractions 0-1 of the element's box),
 * `viewport` (width class, 'desktop' when absent), `rage` and `dead` (0 or 1).
 */
function heatmapClickProperties(payload: TrackPayload): string {
  return JSON.stringify({
    selector: payload.selector ?? '',
    x: payload.click_x ?? 0,
    y: payload.click_y ?? 0,
    viewport: payload.viewport ?? 'desktop',
    rage: payload.rage_click ? 1 : 0,
    dead: payload.dead_click ? 1 : 0,
  })
}

const asText = (value: unknown, max: number): string =>
  typeof value === 'string' ? value.slice(0, max) : typeof value === 'number' ? String(value) : ''

const asLineNumber = (value: unknown): number => {
  const n = typeof value === 'string' ? Number(value) : value
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 0xffffffff ? n : 0
}
