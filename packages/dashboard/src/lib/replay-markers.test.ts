import type { SessionEvent } from '@pathlight/protocol'
import { describe, expect, it } from 'vitest'
import {
  LEAD_IN_MS,
  markerTag,
  markerTags,
  type ReplayMarker,
  RRWEB_CUSTOM_EVENT,
  recordingSpan,
  replayMarkers,
  withMarkers,
} from './replay-markers'

const START = Date.parse('2026-03-10T10:00:00.000Z')

const event = (
  type: SessionEvent['type'],
  offsetMs: number,
  fields: Partial<SessionEvent> = {},
): SessionEvent => ({
  eventId: `${type}-${offsetMs}`,
  timestamp: new Date(START + offsetMs).toISOString(),
  type,
  sessionId: 's1',
  userId: 'u1',
  hostname: 'example.com',
  pathname: '/pricing',
  querystring: '',
  pageTitle: '',
  referrer: '',
  channel: 'Direct',
  eventName: '',
  properties: {},
  country: 'DE',
  region: '',
  city: '',
  browser: 'Chrome',
  operatingSystem: 'Linux',
  deviceType: 'desktop',
  language: 'en',
  errorMessage: '',
  lcp: null,
  cls: null,
  inp: null,
  fcp: null,
  ttfb: null,
  ...fields,
})

describe('recordingSpan', () => {
  it('is the first and last timestamp, null for no events', () => {
    expect(recordingSpan([{ timestamp: 5 }, { timestamp: 2 }, { timestamp: 9 }])).toEqual({
      start: 2,
      end: 9,
    })
    expect(recordingSpan([])).toBeNull()
  })
})

describe('replayMarkers', () => {
  const span = { start: START, end: START + 60_000 }

  it('marks pageviews, custom events, errors and outbound clicks in the recording, oldest first', () => {
    const markers = replayMarkers(
      [
        event('outbound', 30_000, { properties: { url: 'https://other.example/' } }),
        event('pageview', 1000),
        event('custom_event', 20_000, { eventName: 'signup' }),
        event('error', 25_000, { eventName: 'TypeError', errorMessage: 'x is undefined' }),
        event('performance', 5000, { lcp: 1200 }),
      ],
      span,
    )
    expect(markers).toEqual([
      {
        type: RRWEB_CUSTOM_EVENT,
        timestamp: START + 1000,
        data: { tag: 'Viewed /pricing', payload: { kind: 'pageview', eventId: 'pageview-1000' } },
      },
      {
        type: RRWEB_CUSTOM_EVENT,
        timestamp: START + 20_000,
        data: { tag: 'Event: signup', payload: { kind: 'custom_event', eventId: 'custom_event-20000' } },
      },
      {
        type: RRWEB_CUSTOM_EVENT,
        timestamp: START + 25_000,
        data: { tag: 'TypeError: x is undefined', payload: { kind: 'error', eventId: 'error-25000' } },
      },
      {
        type: RRWEB_CUSTOM_EVENT,
        timestamp: START + 30_000,
        data: {
          tag: 'Left for https://other.example/',
          payload: { kind: 'outbound', eventId: 'outbound-30000' },
        },
      },
    ])
  })

  it('places a lead-in event at the start and leaves out events outside the recording', () => {
    const markers = replayMarkers(
      [
        event('pageview', -2000),
        event('pageview', -LEAD_IN_MS - 1),
        event('pageview', 60_001),
        event('pageview', 60_000, { timestamp: 'not a date' }),
      ],
      span,
    )
    expect(markers.map((m) => [m.timestamp, m.data.payload.eventId])).toEqual([[START, 'pageview--2000']])
  })

  it('shortens long tags', () => {
    const tag = markerTag(event('pageview', 0, { pathname: `/${'a'.repeat(200)}` }))
    expect(tag).toHaveLength(80)
    expect(tag.endsWith('…')).toBe(true)
  })

  it("gives each tag its kind's colour", () => {
    const markers = replayMarkers([event('pageview', 0), event('error', 10, { eventName: 'Boom' })], span)
    expect(markerTags(markers)).toEqual({ 'Viewed /pricing': '#2563eb', Boom: '#dc2626' })
  })
})

describe('withMarkers', () => {
  it('merges markers in time order, after recording events of the same millisecond', () => {
    const recording = [
      { timestamp: 10, type: 4 },
      { timestamp: 20, type: 2 },
      { timestamp: 40, type: 3 },
    ]
    const marker = (timestamp: number): ReplayMarker => ({
      type: RRWEB_CUSTOM_EVENT,
      timestamp,
      data: { tag: String(timestamp), payload: { kind: 'pageview' as const, eventId: String(timestamp) } },
    })
    const merged = withMarkers(recording, [marker(10), marker(30), marker(50)])
    expect(merged.map((e) => [e.timestamp, e.type])).toEqual([
      [10, 4],
      [10, 5],
      [20, 2],
      [30, 5],
      [40, 3],
      [50, 5],
    ])
  })
})
