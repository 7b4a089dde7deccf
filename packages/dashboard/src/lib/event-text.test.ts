import type { SessionEvent } from '@pathlight/protocol'
import { describe, expect, it } from 'vitest'
import { describeEvent, offsetText, propertiesText } from './event-text'

const event: SessionEvent = {
  eventId: 'e',
  timestamp: '2026-03-10T10:00:00.000Z',
  type: 'pageview',
  sessionId: 's',
  userId: 'u',
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
  browser: 'Firefox',
  operatingSystem: 'Linux',
  deviceType: 'desktop',
  language: 'de',
  errorMessage: '',
  lcp: null,
  cls: null,
  inp: null,
  fcp: null,
  ttfb: null,
}

describe('describeEvent', () => {
  it('says what each kind of event was', () => {
    expect(describeEvent(event)).toBe('Viewed /pricing')
    expect(describeEvent({ ...event, type: 'custom_event', eventName: 'signup' })).toBe('signup')
    expect(describeEvent({ ...event, type: 'outbound', properties: { url: 'https://x.org/' } })).toBe(
      'Left for https://x.org/',
    )
    expect(
      describeEvent({ ...event, type: 'error', eventName: 'TypeError', errorMessage: 'x is undefined' }),
    ).toBe('TypeError: x is undefined')
    expect(
      describeEvent({ ...event, type: 'performance', lcp: 2100, cls: 0.02, inp: null, fcp: 900, ttfb: 120 }),
    ).toBe('LCP 2.1 s · CLS 0.02 · FCP 900 ms · TTFB 120 ms')
    expect(propertiesText({ plan: 'pro', seats: 3, ok: true })).toBe('plan: pro, seats: 3, ok: true')
  })

  it('gives offsets from the start', () => {
    expect(offsetText('2026-03-10T10:00:00.000Z', '2026-03-10T10:01:05.400Z')).toBe('+1:05')
    expect(offsetText('2026-03-10T10:00:00.000Z', '2026-03-10T11:02:03.000Z')).toBe('+1:02:03')
  })
})
