/**
 * The session's own events as markers on a replay's timeline: rrweb-player draws a custom event
 * (rrweb event type 5, `{type: 5, timestamp, data: {tag, payload}}`) as a coloured tick at its time,
 * titled with its tag, coloured by `tags[tag]`. Pageviews, custom events, errors and outbound clicks
 * become markers (web vitals do not: they say nothing about a moment). Session event times are the
 * server's clock, recording times the browser's; a marker is placed as the server saw it.
 */
import type { SessionEvent } from '@pathlight/protocol'
import { describeEvent } from './event-text'

/** rrweb's `EventType.Custom`. */
export const RRWEB_CUSTOM_EVENT = 5

/** The session event types shown on the timeline, each with its marker colour. */
export const markerColors = {
  pageview: '#2563eb',
  custom_event: '#16a34a',
  error: '#dc2626',
  outbound: '#d97706',
} as const satisfies Partial<Record<SessionEvent['type'], string>>

export type MarkerKind = keyof typeof markerColors

/** A marker as an rrweb custom event. */
export interface ReplayMarker {
  type: typeof RRWEB_CUSTOM_EVENT
  /** Epoch milliseconds. */
  timestamp: number
  data: { tag: string; payload: { kind: MarkerKind; eventId: string } }
}

/** The time span of a recording, epoch milliseconds (first and last event). */
export interface RecordingSpan {
  start: number
  end: number
}

/** Longest tag (the marker's tooltip), in characters. */
export const MAX_TAG_LENGTH = 80

/**
 * Events that happened this long before the recording's first event still get a marker, at the
 * start: the pageview that loaded the recorder is counted by the server before the recorder starts.
 */
export const LEAD_IN_MS = 10_000

const isMarkerKind = (type: SessionEvent['type']): type is MarkerKind => Object.hasOwn(markerColors, type)

/** The first and last timestamps of `events` (rrweb events, epoch ms); null when there are none. */
export function recordingSpan(events: readonly { timestamp: number }[]): RecordingSpan | null {
  if (events.length === 0) return null
  let start = Number.POSITIVE_INFINITY
  let end = Number.NEGATIVE_INFINITY
  for (const { timestamp } of events) {
    if (timestamp < start) start = timestamp
    if (timestamp > end) end = timestamp
  }
  return { start, end }
}

/** The tooltip of an event's marker: 'Viewed /pricing', 'Event: signup', 'Left for https://…'. */
export function markerTag(event: SessionEvent): string {
  const text = event.type === 'custom_event' ? `Event: ${describeEvent(event)}` : describeEvent(event)
  return text.length > MAX_TAG_LENGTH ? `${text.slice(0, MAX_TAG_LENGTH - 1)}…` : text
}

/**
 * One marker per pageview, custom event, error and outbound click of `events` within the recording's
 * `span` (those up to `LEAD_IN_MS` before it are placed at its start; later ones are left out, as
 * the player's timeline ends with the recording), oldest first.
 */
export function replayMarkers(events: readonly SessionEvent[], span: RecordingSpan): ReplayMarker[] {
  const markers: ReplayMarker[] = []
  for (const event of events) {
    if (!isMarkerKind(event.type)) continue
    const at = Date.parse(event.timestamp)
    if (Number.isNaN(at) || at < span.start - LEAD_IN_MS || at > span.end) continue
    markers.push({
      type: RRWEB_CUSTOM_EVENT,
      timestamp: Math.max(at, span.start),
      data: { tag: markerTag(event), payload: { kind: event.type, eventId: event.eventId } },
    })
  }
  return markers.sort((a, b) => a.timestamp - b.timestamp)
}

/** rrweb-player's `tags` option: each marker's tag with the colour of its kind. */
export function markerTags(markers: readonly ReplayMarker[]): Record<string, string> {
  return Object.fromEntries(markers.map((m) => [m.data.tag, markerColors[m.data.payload.kind]]))
}

/**
 * `recording` with `markers` merged in timestamp order (a marker after the recording's events of the
 * same millisecond, so the first event stays the recording's own Meta event).
 */
export function withMarkers<Event extends { timestamp: number }>(
  recording: readonly Event[],
  markers: readonly ReplayMarker[],
): (Event | ReplayMarker)[] {
  const merged: (Event | ReplayMarker)[] = []
  let next = 0
  for (const event of recording) {
    while (next < markers.length && (markers[next]?.timestamp ?? 0) < event.timestamp) {
      merged.push(markers[next++] as ReplayMarker)
    }
    merged.push(event)
  }
  return merged.concat(markers.slice(next))
}
