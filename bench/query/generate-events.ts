/**
 * Synthetic but realistic event rows for the query benchmark, generated day by day (so each insert
 * lands in few monthly partitions) from a seeded PRNG (the same seed gives the same data).
 *
 * Vocabulary comes from the demo access log (`packages/server/demo-data`): the pathnames of human
 * page requests, user agents (parsed with the server's own `parseUserAgent`) and external referrers
 * (channel from the server's `toChannel`). Distributions are synthetic: sites share traffic
 * 40/25/15/12/8 %, weekdays carry more than weekends, the day peaks in the afternoon; a session has
 * 1 + Geometric(0.45) pageviews (mean ~2.2, at most 15) 10-120 s apart, and with some probability a
 * custom event (25 %), an outbound click (10 %), web vitals (40 %) and one or two JavaScript errors
 * (5 %, messages Zipf-distributed over 40). About 3 events per session; visitors return (a pool of
 * 0.6 visitors per session per site).
 */
import crypto from 'node:crypto'
import { readFileSync } from 'node:fs'
import { isbot } from 'isbot'
import { isPageRequest, readAccessLog } from '../../packages/server/src/demo/access-log.js'
import { toChannel } from '../../packages/server/src/ingest/enrich/channel.js'
import { parseUserAgent, type UserAgentInfo } from '../../packages/server/src/ingest/enrich/user-agent.js'
import type { EventRow } from '../../packages/server/src/storage/events/event-row.js'

export const SITE_SHARES = [0.4, 0.25, 0.15, 0.12, 0.08] as const
export const EVENTS_PER_SESSION = 3.0
const DAY_MS = 86_400_000

/** mulberry32: a small, fast, seeded PRNG returning [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface Vocabulary {
  paths: string[]
  agents: { ua: string; info: UserAgentInfo; width: number; height: number }[]
  referrers: string[]
}

/** Pathnames, parsed user agents and external referrers of the access log's human page requests. */
export function loadVocabulary(logFile: string): Vocabulary {
  const paths = new Set<string>()
  const agents = new Map<string, Vocabulary['agents'][number]>()
  const referrers = new Set<string>()
  for (const line of readAccessLog(readFileSync(logFile, 'utf8'))) {
    if (!isPageRequest(line) || line.userAgent === '' || isbot(line.userAgent)) continue
    paths.add(decodeURIComponentSafe(line.path))
    if (!agents.has(line.userAgent)) {
      const info = parseUserAgent(line.userAgent)
      const mobile = info.device_type === 'mobile'
      agents.set(line.userAgent, {
        ua: line.userAgent,
        info,
        width: mobile ? 390 : 1920,
        height: mobile ? 844 : 1080,
      })
    }
    if (line.referrer.startsWith('http') && !line.referrer.includes('semicomplete.com'))
      referrers.add(line.referrer)
  }
  return { paths: [...paths], agents: [...agents.values()], referrers: [...referrers] }
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

const COUNTRIES = [
  ['US', 'California', 'San Francisco', 30],
  ['DE', 'Berlin', 'Berlin', 12],
  ['GB', 'England', 'London', 10],
  ['FR', 'Ile-de-France', 'Paris', 8],
  ['IN', 'Karnataka', 'Bengaluru', 8],
  ['BR', 'Sao Paulo', 'Sao Paulo', 6],
  ['CA', 'Ontario', 'Toronto', 6],
  ['JP', 'Tokyo', 'Tokyo', 5],
  ['NL', 'North Holland', 'Amsterdam', 5],
  ['AU', 'New South Wales', 'Sydney', 4],
  ['', '', '', 6],
] as const
const LANGUAGES = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'pt-BR', 'ja-JP', 'nl-NL', 'es-ES']
const CUSTOM_EVENTS = ['signup', 'add_to_cart', 'play_video', 'newsletter', 'download'] as const
const ERROR_NAMES = ['TypeError', 'ReferenceError', 'SyntaxError', 'RangeError', 'Error'] as const
const ERROR_MESSAGES = Array.from({ length: 40 }, (_, i) =>
  i % 3 === 0
    ? `Cannot read properties of undefined (reading 'field${i}')`
    : i % 3 === 1
      ? `module${i} is not defined`
      : `Failed to fetch resource ${i}`,
)

/** Draw an index 0..n-1 with weight 1/(i+1)^s (Zipf). */
function zipfPicker(n: number, s: number, random: () => number): () => number {
  const cumulative: number[] = []
  let total = 0
  for (let i = 0; i < n; i++) {
    total += 1 / (i + 1) ** s
    cumulative.push(total)
  }
  return () => {
    const x = random() * total
    let lo = 0
    let hi = n - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((cumulative[mid] ?? 0) < x) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

/**
 * Rows for `totalEvents` events (approximately: whole sessions) over `days` days ending at `end`
 * (exclusive), handed to `sink` in batches of about `batchSize` rows, in day order.
 * @returns the number of rows generated
 */
export async function generateEvents(options: {
  totalEvents: number
  days: number
  end: Date
  batchSize: number
  vocabulary: Vocabulary
  sink: (rows: EventRow[]) => Promise<void>
  seed?: number
}): Promise<number> {
  const random = seededRandom(options.seed ?? 42)
  const { paths, agents, referrers } = options.vocabulary
  const pickPath = zipfPicker(paths.length, 1.1, random)
  const pickAgent = zipfPicker(agents.length, 0.9, random)
  const pickReferrer = zipfPicker(referrers.length, 1.0, random)
  const pickError = zipfPicker(ERROR_MESSAGES.length, 1.2, random)
  const countryTotal = COUNTRIES.reduce((sum, c) => sum + c[3], 0)
  const pickCountry = () => {
    let x = random() * countryTotal
    for (const c of COUNTRIES) {
      x -= c[3]
      if (x <= 0) return c
    }
    return COUNTRIES[0]
  }
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T

  const sessionsTotal = options.totalEvents / EVENTS_PER_SESSION
  const start = options.end.getTime() - options.days * DAY_MS
  const dayWeights = Array.from({ length: options.days }, (_, d) => {
    const weekday = new Date(start + d * DAY_MS).getUTCDay()
    return weekday === 0 || weekday === 6 ? 0.7 : 1
  })
  const weightSum = dayWeights.reduce((a, b) => a + b, 0)
  const visitorPools = SITE_SHARES.map((share) => Math.max(1, Math.round(sessionsTotal * share * 0.6)))

  let batch: EventRow[] = []
  let generated = 0
  // One insert in flight while the next batch is generated (chDB inserts off the JS thread).
  let pending: Promise<void> = Promise.resolve()
  const flush = async () => {
    const rows = batch
    batch = []
    generated += rows.length
    await pending
    pending = options.sink(rows)
  }
  for (let d = 0; d < options.days && generated + batch.length < options.totalEvents; d++) {
    const sessions = Math.round((sessionsTotal * (dayWeights[d] ?? 1)) / weightSum)
    const dayStart = start + d * DAY_MS
    for (let s = 0; s < sessions && generated + batch.length < options.totalEvents; s++) {
      const siteIndex = pickSite(random())
      const site = siteIndex + 1
      const visitor = Math.floor(random() * (visitorPools[siteIndex] ?? 1))
      // Afternoon peak: the hour of day as a sum of two uniforms centred on 15:00 UTC.
      const hour = (((random() + random()) * 12 + 3) % 24) * 3_600_000
      let t = dayStart + hour + Math.floor(random() * 3_600_000)
      const agent = agents[pickAgent()] ?? agents[0]
      if (!agent) throw new Error('no user agents in the vocabulary')
      const [country, region, city] = pickCountry()
      const referrer = random() < 0.45 ? '' : (referrers[pickReferrer()] ?? '')
      const utm = random() < 0.08 ? `utm_source=newsletter&utm_medium=email&utm_campaign=spring-${site}` : ''
      const hostname = `site${site}.example`
      const channel = toChannel({ referrer, hostname, querystring: utm })
      const session: SessionFields = {
        site_id: site,
        session_id: crypto.randomUUID(),
        user_id: `v${site}-${visitor.toString(16)}`,
        hostname,
        querystring: utm,
        referrer,
        referrer_domain: domainOf(referrer),
        channel,
        utm_source: utm ? 'newsletter' : '',
        utm_medium: utm ? 'email' : '',
        utm_campaign: utm ? `spring-${site}` : '',
        agent,
        language: pick(LANGUAGES),
        country,
        region,
        city,
      }
      const row = (type: EventRow['type'], pathname: string, extra?: Extra): EventRow =>
        toRow(session, t, type, pathname, extra)
      let pageviews = 1
      while (pageviews < 15 && random() > 0.45) pageviews++
      let pathname = paths[pickPath()] ?? '/'
      for (let p = 0; p < pageviews; p++) {
        if (p > 0) {
          t += 10_000 + Math.floor(random() * 110_000)
          pathname = paths[pickPath()] ?? '/'
        }
        batch.push(row('pageview', pathname))
        if (p === 0 && random() < 0.4) {
          batch.push(
            row('performance', pathname, {
              lcp: 800 + random() * 3000,
              cls: random() * 0.3,
              inp: 40 + random() * 400,
              fcp: 500 + random() * 2000,
              ttfb: 50 + random() * 800,
            }),
          )
        }
      }
      if (random() < 0.25) {
        t += 5_000 + Math.floor(random() * 60_000)
        const name = pick(CUSTOM_EVENTS)
        const plan = random() < 0.3 ? 'pro' : 'free'
        batch.push(
          row('custom_event', pathname, {
            event_name: name,
            properties: JSON.stringify({ plan, seats: 1 + Math.floor(random() * 5) }),
          }),
        )
      }
      if (random() < 0.1) {
        t += 2_000 + Math.floor(random() * 30_000)
        batch.push(row('outbound', pathname, { properties: '{"url":"https://github.com/","text":"GitHub"}' }))
      }
      if (random() < 0.05) {
        const count = random() < 0.3 ? 2 : 1
        for (let e = 0; e < count; e++) {
          t += 1_000 + Math.floor(random() * 20_000)
          const message = ERROR_MESSAGES[pickError()] ?? 'Error'
          const line = 1 + Math.floor(random() * 400)
          batch.push(
            row('error', pathname, {
              event_name: pick(ERROR_NAMES),
              error_message: message,
              error_stack: `Error: ${message}\n    at f (https://${hostname}/app.js:${line}:7)\n    at g (https://${hostname}/app.js:900:3)`,
              error_file: `https://${hostname}/app.js`,
              error_line: line,
              error_column: 7,
            }),
          )
        }
      }
      if (batch.length >= options.batchSize) await flush()
    }
  }
  if (batch.length > 0) await flush()
  await pending
  return generated
}

/** What every event of a session shares. */
interface SessionFields {
  site_id: number
  session_id: string
  user_id: string
  hostname: string
  querystring: string
  referrer: string
  referrer_domain: string
  channel: string
  utm_source: string
  utm_medium: string
  utm_campaign: string
  agent: Vocabulary['agents'][number]
  language: string
  country: string
  region: string
  city: string
}

/** What varies by event type. */
type Extra = Partial<
  Pick<
    EventRow,
    | 'event_name'
    | 'properties'
    | 'lcp'
    | 'cls'
    | 'inp'
    | 'fcp'
    | 'ttfb'
    | 'error_message'
    | 'error_stack'
    | 'error_file'
    | 'error_line'
    | 'error_column'
  >
>

/** One row as a single object literal (one hidden class: spreads of 45 fields made generation GC-bound). */
function toRow(s: SessionFields, t: number, type: EventRow['type'], pathname: string, x?: Extra): EventRow {
  const info = s.agent.info
  return {
    event_id: crypto.randomUUID(),
    site_id: s.site_id,
    timestamp: new Date(t).toISOString(),
    type,
    session_id: s.session_id,
    user_id: s.user_id,
    hostname: s.hostname,
    pathname,
    querystring: s.querystring,
    page_title: '',
    referrer: s.referrer,
    referrer_domain: s.referrer_domain,
    channel: s.channel,
    utm_source: s.utm_source,
    utm_medium: s.utm_medium,
    utm_campaign: s.utm_campaign,
    utm_term: '',
    utm_content: '',
    browser: info.browser,
    browser_version: info.browser_version,
    operating_system: info.operating_system,
    operating_system_version: info.operating_system_version,
    device_type: info.device_type,
    screen_width: s.agent.width,
    screen_height: s.agent.height,
    language: s.language,
    country: s.country,
    region: s.region,
    city: s.city,
    lat: null,
    lon: null,
    event_name: x?.event_name ?? '',
    properties: x?.properties ?? '',
    lcp: x?.lcp ?? null,
    cls: x?.cls ?? null,
    inp: x?.inp ?? null,
    fcp: x?.fcp ?? null,
    ttfb: x?.ttfb ?? null,
    error_message: x?.error_message ?? '',
    error_stack: x?.error_stack ?? '',
    error_file: x?.error_file ?? '',
    error_line: x?.error_line ?? 0,
    error_column: x?.error_column ?? 0,
  }
}

function pickSite(x: number): number {
  let acc = 0
  for (const [i, share] of SITE_SHARES.entries()) {
    acc += share
    if (x < acc) return i
  }
  return SITE_SHARES.length - 1
}

function domainOf(referrer: string): string {
  if (referrer === '') return ''
  try {
    const host = new URL(referrer).hostname.toLowerCase()
    return host.startsWith('www.') ? host.slice(4) : host
  } catch {
    return ''
  }
}
