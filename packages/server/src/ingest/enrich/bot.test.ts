import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { detectBot } from './bot.js'

/** isbot's fixtures (label → user agents), converted from YAML by test-data/isbot-yml-to-json.mjs. */
function loadFixture(kind: 'browsers' | 'crawlers'): Array<{ label: string; ua: string }> {
  const file = new URL(`../../../test-data/isbot-${kind}.json`, import.meta.url)
  const fixture = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string[]>
  return Object.entries(fixture).flatMap(([label, uas]) => uas.map((ua) => ({ label, ua })))
}

/**
 * Crawler fixtures that detectBot does not flag. Empty: with isbot 5.2.3 every one of the 626 is caught
 * (619 as 'crawler', 7 as 'headless_browser').
 */
const KNOWN_MISSED_CRAWLERS: readonly string[] = []

/** Browser fixtures that detectBot flags. Empty: none of the 555 is flagged. */
const KNOWN_FLAGGED_BROWSERS: readonly string[] = []

describe('detectBot on the isbot 5.2.1 fixtures', () => {
  it('flags every crawler user agent', () => {
    const crawlers = loadFixture('crawlers')
    const missed = crawlers.filter((c) => detectBot(c.ua) === null && !KNOWN_MISSED_CRAWLERS.includes(c.ua))
    expect(crawlers).toHaveLength(626)
    expect(missed).toEqual([])
  })

  it('flags no browser user agent', () => {
    const browsers = loadFixture('browsers')
    const flagged = browsers
      .map((b) => ({ ...b, reason: detectBot(b.ua) }))
      .filter((b) => b.reason !== null && !KNOWN_FLAGGED_BROWSERS.includes(b.ua))
    expect(browsers).toHaveLength(555)
    expect(flagged).toEqual([])
  })

  it('reports the automation tools among them as headless browsers', () => {
    const headless = loadFixture('crawlers').filter((c) => detectBot(c.ua) === 'headless_browser')
    expect(new Set(headless.map((c) => c.label))).toEqual(
      new Set(['Chrome Headless', 'Phantomas', 'PhantomJS', 'Playwright', 'Selenium']),
    )
  })
})

describe('detectBot', () => {
  it.each([
    ['', 'empty_user_agent'],
    ['   ', 'empty_user_agent'],
    ['\t\n', 'empty_user_agent'],
    ['-', 'empty_user_agent'],
    [' - ', 'empty_user_agent'],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) ' +
        'HeadlessChrome/120.0.0.0 Safari/537.36',
      'headless_browser',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/538.1 (KHTML, like Gecko) PhantomJS/2.1.1',
      'headless_browser',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0.0.0 Safari/537.36 Puppeteer', 'headless_browser'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0.0.0 Safari/537.36 Playwright/1.40.0',
      'headless_browser',
    ],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'crawler'],
    ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 'crawler'],
    ['curl/8.4.0', 'crawler'],
    ['python-requests/2.31.0', 'crawler'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) ' +
        'Chrome/120.0.0.0 Safari/537.36',
      null,
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) ' +
        'Version/17.1 Mobile/15E148 Safari/604.1',
      null,
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) ' +
        'Slack/4.35.126 ' +
        'Chrome/118.0.5993.159 Electron/27.1.0 Safari/537.36',
      null,
    ],
  ])('%j → %s', (ua, reason) => {
    expect(detectBot(ua)).toBe(reason)
  })
})
