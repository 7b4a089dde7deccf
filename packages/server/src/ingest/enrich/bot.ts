/**
 * Bot detection from the User-Agent header, run before any other enrichment so that crawlers that send
 * complete browser user agents (Googlebot Smartphone, Bingbot...) are never parsed as visitors.
 *
 * This catches self-declared automation only. Bots that send a plain browser user agent (form spammers,
 * scrapers) pass; they need behavioural or IP-based checks elsewhere.
 */
import { isbot } from 'isbot'
import { createTtlCache } from '../../shared/ttl-cache.js'

/**
 * Why a request was classified as a bot:
 * - 'empty_user_agent': the header is missing, blank or '-' (log placeholder); real browsers always send one.
 * - 'headless_browser': a browser automation marker (HeadlessChrome, PhantomJS, Puppeteer, Playwright,
 *   Selenium...): a real engine driven by a script, not a person.
 * - 'crawler': matched by the isbot pattern list (crawlers, monitors, feed readers, HTTP libraries).
 */
export type BotReason = 'empty_user_agent' | 'headless_browser' | 'crawler'

/**
 * Automation markers, checked before isbot because isbot also matches some of them (e.g. HeadlessChrome)
 * and would report them as 'crawler'. Electron apps are not flagged: Electron is a desktop runtime, not
 * automation. 'Headless' covers HeadlessChrome and "Firefox Headless"-style tokens.
 */
const HEADLESS_PATTERN = /headless|phantomjs|slimerjs|puppeteer|playwright|selenium|webdriver|htmlunit/i

/**
 * Classifies a User-Agent header.
 *
 * @param userAgent the raw header value ('' when the header is absent).
 * @returns the {@link BotReason}, or `null` for a presumed human browser. Never throws.
 *
 * Data source: the isbot 5 pattern list (Unlicense, Omri Lotan) for 'crawler'; our own marker list for
 * 'headless_browser'.
 */
export function detectBot(userAgent: string): BotReason | null {
  let reason = recent.get(userAgent)
  if (reason === undefined) {
    reason = classify(userAgent.trim())
    recent.set(userAgent, reason)
  }
  return reason
}

function classify(ua: string): BotReason | null {
  if (ua === '' || ua === '-') return 'empty_user_agent'
  if (HEADLESS_PATTERN.test(ua)) return 'headless_browser'
  if (isbot(ua)) return 'crawler'
  return null
}

/** User agents repeat (a few hundred cover most traffic): isbot's pattern runs once per distinct one. */
const recent = createTtlCache<string, BotReason | null>({
  ttlMs: Number.POSITIVE_INFINITY,
  maxEntries: 5000,
  lru: true,
})
