/**
 * Test support for the Query API: a seeded, reproducible set of exported event lines (several
 * visitors, sessions with known countries, browsers, devices, sources, pages and a custom event), and
 * the plain-code counts the tests compare the API's answers with. The counts follow the documented
 * rules directly over the lines, not through the code under test.
 */
import crypto from 'node:crypto'

/** One generated event (the fields the counts read), and its exported line. */
export interface FixtureEvent {
  eventId: string
  timestamp: string
  type: 'pageview' | 'custom_event'
  sessionId: string
  userId: string
  pathname: string
  eventName: string
  properties: Record<string, string>
  country: string
  browser: string
  operatingSystem: string
  deviceType: string
  referrerDomain: string
}

const COUNTRIES = ['DE', 'US', 'FR', 'EE']
const BROWSERS: [string, string, string][] = [
  ['Chrome', 'Windows', 'desktop'],
  ['Firefox', 'Linux', 'desktop'],
  ['Mobile Safari', 'iOS', 'mobile'],
  ['Safari', 'Mac OS', 'desktop'],
]
const PAGES = ['/', '/blog/one', '/blog/two', '/pricing', '/docs']
const SOURCES = ['', 'google.com', 'news.ycombinator.com']

/** A small deterministic generator (mulberry32). */
function random(seed: number) {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * `sessions` sessions of `visitors` visitors between `startMs` and `startMs + days` days, each of 1 to
 * 4 pageviews 10 to 300 s apart, a third with a `signup` custom event (property `plan` on most).
 */
export function fixtureEvents(options: {
  seed: number
  startMs: number
  days: number
  sessions: number
  visitors: number
}) {
  const next = random(options.seed)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T
  const events: FixtureEvent[] = []
  for (let s = 0; s < options.sessions; s++) {
    const userId = `visitor-${Math.floor(next() * options.visitors)}`
    const [browser, operatingSystem, deviceType] = pick(BROWSERS)
    const base = {
      sessionId: crypto.randomUUID(),
      userId,
      country: pick(COUNTRIES),
      browser,
      operatingSystem,
      deviceType,
      referrerDomain: pick(SOURCES),
    }
    let at = options.startMs + Math.floor(next() * options.days * 86_400) * 1000
    const pageviews = 1 + Math.floor(next() * 4)
    for (let p = 0; p < pageviews; p++) {
      events.push({
        ...base,
        eventId: crypto.randomUUID(),
        timestamp: new Date(at).toISOString(),
        type: 'pageview',
        pathname: pick(PAGES),
        eventName: '',
        properties: {},
      })
      at += (10 + Math.floor(next() * 290)) * 1000
    }
    if (next() < 1 / 3) {
      const properties: Record<string, string> = next() < 0.75 ? { plan: pick(['pro', 'free']) } : {}
      events.push({
        ...base,
        eventId: crypto.randomUUID(),
        timestamp: new Date(at).toISOString(),
        type: 'custom_event',
        pathname: '/pricing',
        eventName: 'signup',
        properties,
      })
    }
  }
  return events
}

/** The exported NDJSON line of an event (every field of the export format). */
export function exportedLine(event: FixtureEvent): string {
  return JSON.stringify({
    eventId: event.eventId,
    timestamp: event.timestamp,
    type: event.type,
    sessionId: event.sessionId,
    userId: event.userId,
    hostname: 'example.com',
    pathname: event.pathname,
    querystring: '',
    pageTitle: '',
    referrer: event.referrerDomain === '' ? '' : `https://${event.referrerDomain}/`,
    referrerDomain: event.referrerDomain,
    channel: event.referrerDomain === '' ? 'Direct' : 'Referral',
    utmSource: '',
    utmMedium: '',
    utmCampaign: '',
    utmTerm: '',
    utmContent: '',
    browser: event.browser,
    browserVersion: '1',
    operatingSystem: event.operatingSystem,
    operatingSystemVersion: '1',
    deviceType: event.deviceType,
    screenWidth: 1200,
    screenHeight: 800,
    language: 'en',
    country: event.country,
    region: '',
    city: '',
    lat: null,
    lon: null,
    eventName: event.eventName,
    properties: event.properties,
    lcp: null,
    cls: null,
    inp: null,
    fcp: null,
    ttfb: null,
    errorMessage: '',
    errorStack: '',
    errorFile: '',
    errorLine: 0,
    errorColumn: 0,
  })
}

/** A session of the range: its events in the range, oldest first, and its first event. */
export interface FixtureSession {
  events: FixtureEvent[]
  first: FixtureEvent
  entryPage: string
}

/** The sessions of `[from, to)`: each session's events inside the range (a session cut at the edge keeps those). */
export function sessionsIn(events: readonly FixtureEvent[], from: number, to: number): FixtureSession[] {
  const bySession = new Map<string, FixtureEvent[]>()
  for (const event of events) {
    const t = Date.parse(event.timestamp)
    if (t < from || t >= to) continue
    bySession.set(event.sessionId, [...(bySession.get(event.sessionId) ?? []), event])
  }
  return [...bySession.values()].map((list) => {
    const sorted = [...list].sort(
      (a, b) => a.timestamp.localeCompare(b.timestamp) || a.eventId.localeCompare(b.eventId),
    )
    const first = sorted[0] as FixtureEvent
    return { events: sorted, first, entryPage: sorted.find((e) => e.type === 'pageview')?.pathname ?? '' }
  })
}

/** The day of an instant in a zone, `YYYY-MM-DD`. */
export const dayOf = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(iso),
  )

/** The UTC instant of a zone's midnight starting `day` (a day without a clock change). */
export function midnightIn(day: string, timeZone: string): number {
  const guess = Date.parse(`${day}T00:00:00Z`)
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
      .formatToParts(new Date(guess))
      .map((p) => [p.type, Number(p.value)]),
  )
  const part = (name: string) => parts[name] ?? 0
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  )
  return guess - (wall - guess)
}
