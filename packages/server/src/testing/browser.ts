/**
 * Test support for the end-to-end tests in Chromium: Debian's build (`/usr/bin/chromium`) driven by
 * playwright-core, launched with one set of flags, browser contexts with a desktop Chrome user agent
 * (isbot flags the default HeadlessChrome one, so the server would refuse the pages' events as a bot's),
 * the page errors a test asserts there are none of, and the session cookie carried between
 * `TestInstance.app.inject()` and a context.
 */
import fs from 'node:fs'
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from 'playwright-core'

/** Debian's Chromium (`apt-get install chromium`); playwright-core downloads no browser of its own. */
export const CHROMIUM = '/usr/bin/chromium'

/** The user agent of every context: desktop Chrome on Linux, as the Chromium here is, not headless. */
export const CHROME_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'

/** The dashboard tests' window, CSS pixels: wide enough for the desktop layout. */
export const DASHBOARD_VIEWPORT = { width: 1280, height: 900 } as const

/**
 * Chromium's flags. Quiet: no GPU, no sandbox (containers), no background requests, QUIC, first-run
 * pages, component updates or sync. `*.test` host names resolve to 127.0.0.1, so fixture servers on
 * loopback serve pages of "customer sites" (`http://shop.test:PORT/`). The user agent is also set
 * browser-wide: a keepalive request that outlives its page (vitals sent as the page unloads) does not get
 * a context's user agent override, and HeadlessChrome is refused as a bot.
 */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP *.test 127.0.0.1',
  `--user-agent=${CHROME_UA}`,
]

/** @throws when {@link CHROMIUM} is missing, saying how to install it */
export function requireChromium(): void {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium), see .ci/run`,
    )
  }
}

/**
 * Launch {@link CHROMIUM} with the shared flags (see {@link FLAGS}). Close it in `afterAll`.
 * @throws when Chromium is missing or does not start
 */
export async function launchChromium(): Promise<Browser> {
  requireChromium()
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS })
}

/**
 * A new context with {@link CHROME_UA}; `options` add to it or replace it (baseURL, viewport, another
 * user agent). Without a viewport, Playwright's default (1280 x 720) applies.
 */
export function newChromeContext(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  return browser.newContext({ userAgent: CHROME_UA, ...options })
}

/** A context for the dashboard served at `baseURL` (origin of the server): {@link DASHBOARD_VIEWPORT}. */
export function newDashboardContext(
  browser: Browser,
  baseURL: string,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  return newChromeContext(browser, { baseURL, viewport: DASHBOARD_VIEWPORT, ...options })
}

/**
 * Collect what would be a bug a user could notice into `errors`, as `label: message`: the page's
 * uncaught exceptions and its console errors, which include CSP violations. Chromium's own
 * "Failed to load resource" lines (the refused API calls tests provoke: 400s, 401s, 409s) are left out
 * unless `failedLoads` is true.
 */
export function collectPageErrors(
  page: Page,
  errors: string[],
  label: string,
  options: { failedLoads?: boolean } = {},
): void {
  page.on('pageerror', (error) => errors.push(`${label}: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() !== 'error') return
    if (!options.failedLoads && message.text().startsWith('Failed to load resource')) return
    errors.push(`${label}: ${message.text()}`)
  })
}

/**
 * Give `context` the session of a `Cookie` header value `name=value` (as `TestInstance.signUp` returns
 * it; the value percent-encoded) for the server at `url`.
 */
export async function addSessionCookie(context: BrowserContext, cookie: string, url: string): Promise<void> {
  const at = cookie.indexOf('=')
  const [name, value] = at < 0 ? [cookie, ''] : [cookie.slice(0, at), cookie.slice(at + 1)]
  await context.addCookies([{ name, value: decodeURIComponent(value), url }])
}

/** The cookies `context` holds for `url`, as a `Cookie` header value (`a=1; b=2`) for `app.inject()`. */
export async function cookieHeaderOf(context: BrowserContext, url: string): Promise<string> {
  return (await context.cookies(url)).map((c) => `${c.name}=${c.value}`).join('; ')
}

/** What {@link openSignedInPage} needs beyond the browser. */
export interface SignedInPageOptions {
  /** The server's origin (`TestInstance.app.listen()`'s URL). */
  baseURL: string
  /** The session cookie (`name=value`, as `TestInstance.signUp`/`seed` return it). */
  cookie: string
  /** Where the page's errors go (`collectPageErrors`), under `label`. */
  errors: string[]
  label: string
  /** Playwright's default timeout for the page, ms (default 10,000). */
  timeoutMs?: number
  /** Also collect Chromium's "Failed to load resource" lines. */
  failedLoads?: boolean
}

/**
 * A dashboard page signed in with `cookie`: a new {@link newDashboardContext} carrying the session,
 * its page with errors collected. Close the context when done (closing the browser does too).
 */
export async function openSignedInPage(
  browser: Browser,
  options: SignedInPageOptions,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newDashboardContext(browser, options.baseURL)
  await addSessionCookie(context, options.cookie, options.baseURL)
  const page = await context.newPage()
  page.setDefaultTimeout(options.timeoutMs ?? 10_000)
  collectPageErrors(page, options.errors, options.label, { failedLoads: options.failedLoads })
  return { context, page }
}
