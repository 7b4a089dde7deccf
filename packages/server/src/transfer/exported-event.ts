/**
 * One line of an export (`GET /api/sites/{siteId}/export`, NDJSON): every stored field of an event
 * under the names of the v1 events API (`eventId`, `timestamp`, `sessionId`, `userId`, `pageTitle`,
 * `eventName`, `properties` as an object, ...) and, for the fields v1 does not list, the camelCase
 * of the column (`utmSource`, `referrerDomain`, `browserVersion`, `screenWidth`, `lat`, `lcp`,
 * `errorMessage`, ...). The site is not part of a line: the import path names it.
 *
 * The same shape imports "as is" (the protocol's `exportedEventSchema`, re-exported here): no re-enrichment, since the IP address is
 * never stored and an export cannot be geolocated again. A line is in this form when it has `eventId`.
 */
import { canonicalPropertiesOf, type ExportedEvent, parsePropertiesObject } from '@pathlight/protocol'
import type { EventRow } from '../storage/events/event-row.js'
import type { StoredEvent } from './import-entry.js'

export { type ExportedEvent, exportedEventSchema } from '@pathlight/protocol'

/** A stored row as its export line. `properties` '' (none) becomes `{}`. */
export function toExportedEvent(row: EventRow): ExportedEvent {
  return {
    eventId: row.event_id,
    timestamp: row.timestamp,
    type: row.type,
    sessionId: row.session_id,
    userId: row.user_id,
    hostname: row.hostname,
    pathname: row.pathname,
    querystring: row.querystring,
    pageTitle: row.page_title,
    referrer: row.referrer,
    referrerDomain: row.referrer_domain,
    // Stored channels are those ingest and the importer let in: '' or one of `channels`.
    channel: row.channel as ExportedEvent['channel'],
    utmSource: row.utm_source,
    utmMedium: row.utm_medium,
    utmCampaign: row.utm_campaign,
    utmTerm: row.utm_term,
    utmContent: row.utm_content,
    browser: row.browser,
    browserVersion: row.browser_version,
    operatingSystem: row.operating_system,
    operatingSystemVersion: row.operating_system_version,
    deviceType: row.device_type,
    screenWidth: row.screen_width,
    screenHeight: row.screen_height,
    language: row.language,
    country: row.country,
    region: row.region,
    city: row.city,
    lat: row.lat,
    lon: row.lon,
    eventName: row.event_name,
    properties: propertiesObject(row.properties),
    lcp: row.lcp,
    cls: row.cls,
    inp: row.inp,
    fcp: row.fcp,
    ttfb: row.ttfb,
    errorMessage: row.error_message,
    errorStack: row.error_stack,
    errorFile: row.error_file,
    errorLine: row.error_line,
    errorColumn: row.error_column,
  }
}

/** An exported line as a stored row (without its site); the timestamp in UTC, `{}` properties as ''. */
export function fromExportedEvent(line: ExportedEvent): StoredEvent {
  return {
    event_id: line.eventId.toLowerCase(),
    timestamp: new Date(line.timestamp).toISOString(),
    type: line.type,
    session_id: line.sessionId,
    user_id: line.userId,
    hostname: line.hostname,
    pathname: line.pathname,
    querystring: line.querystring,
    page_title: line.pageTitle,
    referrer: line.referrer,
    referrer_domain: line.referrerDomain,
    channel: line.channel,
    utm_source: line.utmSource,
    utm_medium: line.utmMedium,
    utm_campaign: line.utmCampaign,
    utm_term: line.utmTerm,
    utm_content: line.utmContent,
    browser: line.browser,
    browser_version: line.browserVersion,
    operating_system: line.operatingSystem,
    operating_system_version: line.operatingSystemVersion,
    device_type: line.deviceType,
    screen_width: line.screenWidth,
    screen_height: line.screenHeight,
    language: line.language,
    country: line.country,
    region: line.region,
    city: line.city,
    lat: line.lat,
    lon: line.lon,
    event_name: line.eventName,
    properties: storedProperties(line.properties),
    lcp: line.lcp,
    cls: line.cls,
    inp: line.inp,
    fcp: line.fcp,
    ttfb: line.ttfb,
    error_message: line.errorMessage,
    error_stack: line.errorStack,
    error_file: line.errorFile,
    error_line: line.errorLine,
    error_column: line.errorColumn,
  }
}

/**
 * An exported line's properties as stored: '' for `{}`, else their canonical text (the schema has
 * refused a line whose properties have none).
 */
function storedProperties(properties: Record<string, unknown>): string {
  if (Object.keys(properties).length === 0) return ''
  const canonical = canonicalPropertiesOf(properties)
  return 'text' in canonical ? canonical.text : JSON.stringify(properties)
}

function propertiesObject(properties: string): Record<string, unknown> {
  return properties === '' ? {} : (parsePropertiesObject(properties) ?? {})
}
