/**
 * Realistic raw import lines (the tracking body's fields plus `timestamp`), generated on the fly so a
 * million need no memory: visits of 1 to 6 events a few minutes apart, spread evenly over the year
 * before `end`, from a pool of visitors (each an IP address and a user agent, a third with a `user_id`),
 * with a mix of referrers, campaign tags, pages and custom events. Deterministic (seeded PRNG).
 */

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0',
  'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
]
const REFERRERS = [
  '',
  '',
  '',
  'https://www.google.com/',
  'https://www.google.de/',
  'https://www.bing.com/search?q=analytics',
  'https://duckduckgo.com/',
  'https://news.ycombinator.com/item?id=40000000',
  'https://www.reddit.com/r/selfhosted/',
  'https://t.co/abc',
  'https://github.com/pathlight/pathlight',
  'https://blog.example.org/2024/analytics',
]
const CAMPAIGNS = [
  '',
  '',
  '',
  '',
  '?utm_source=newsletter&utm_medium=email&utm_campaign=spring',
  '?utm_source=google&utm_medium=cpc&utm_campaign=brand',
  '?gclid=Cj0KCQjw',
]
const PAGES = [
  '/',
  '/pricing',
  '/docs',
  '/docs/install',
  '/docs/api',
  '/blog',
  '/blog/self-hosting-analytics',
  '/blog/privacy',
  '/about',
  '/signup',
  '/login',
  '/changelog',
]
const TITLES: Record<string, string> = Object.fromEntries(PAGES.map((page) => [page, `Pathlight ${page}`]))
const LANGUAGES = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'ja-JP']
const SCREENS = [
  [1920, 1080],
  [1440, 900],
  [390, 844],
  [412, 915],
  [2560, 1440],
] as const
const YEAR_MS = 365 * 86_400_000

export interface RawEventsOptions {
  count: number
  /** Epoch ms; events lie in the year before it. */
  end: number
  hostname: string
  /** Distinct visitors (IP and user agent pairs). */
  visitors?: number
  /** Distinct pathnames (default the 12 listed; more add `/docs/page-<n>`). */
  paths?: number
  seed?: number
}

/** A small deterministic PRNG (mulberry32): floats in [0, 1). */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A public-looking IPv4 address for visitor `n` (first octet 11..222, never 127 or private ranges). */
function ipOf(n: number, next: () => number): string {
  const first = [11, 23, 31, 45, 62, 77, 81, 92, 104, 151, 178, 185, 203, 212, 222][n % 15]
  return `${first}.${Math.floor(next() * 256)}.${Math.floor(next() * 256)}.${1 + Math.floor(next() * 254)}`
}

/**
 * @returns NDJSON lines (no line break), `count` of them, oldest visit first; events of one visit are
 *   consecutive and ascending in time
 */
export function* rawEventLines(options: RawEventsOptions): Generator<string> {
  const next = random(options.seed ?? 7)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T
  const visitorCount = options.visitors ?? Math.max(100, Math.floor(options.count / 8))
  const visitors = Array.from({ length: visitorCount }, (_, n) => ({
    ip: ipOf(n, next),
    userAgent: USER_AGENTS[n % USER_AGENTS.length] as string,
    userId: n % 3 === 0 ? `user-${n}` : undefined,
    language: pick(LANGUAGES),
    screen: pick(SCREENS),
  }))
  const pages = [...PAGES]
  for (let n = 1; pages.length < (options.paths ?? PAGES.length); n++) pages.push(`/docs/page-${n}`)
  const start = options.end - YEAR_MS
  const meanVisit = 3.5
  const step = YEAR_MS / (options.count / meanVisit)
  let made = 0
  let visitIndex = 0
  while (made < options.count) {
    const visitor = pick(visitors)
    let at = start + Math.floor(visitIndex * step + next() * step)
    visitIndex++
    const length = 1 + Math.floor(next() * 6)
    const referrer = pick(REFERRERS)
    const campaign = pick(CAMPAIGNS)
    for (let i = 0; i < length && made < options.count; i++, made++) {
      const custom = i > 0 && next() < 0.15
      const pathname = pick(pages)
      const line: Record<string, unknown> = {
        timestamp: new Date(Math.min(at, options.end - 60_000)).toISOString(),
        hostname: options.hostname,
        pathname,
        page_title: TITLES[pathname] ?? `Pathlight ${pathname}`,
        referrer: i === 0 ? referrer : `https://${options.hostname}/`,
        querystring: i === 0 ? campaign : '',
        user_agent: visitor.userAgent,
        ip_address: visitor.ip,
        language: visitor.language,
        screenWidth: visitor.screen[0],
        screenHeight: visitor.screen[1],
        ...(visitor.userId === undefined ? {} : { user_id: visitor.userId }),
      }
      if (custom) {
        line.type = 'custom_event'
        line.event_name = pick(['signup', 'download', 'cta_click'])
        line.properties = { plan: pick(['free', 'pro', 'team']) }
      }
      yield JSON.stringify(line)
      at += 20_000 + Math.floor(next() * 4 * 60_000)
    }
  }
}
