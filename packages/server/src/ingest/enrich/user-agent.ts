/**
 * User-agent enrichment: browser, operating system and device class of a pageview or event.
 *
 * Parsing is done by ua-parser-js 1.x (MIT, Faisal Salman); this module only normalises its output to
 * empty strings, decides the device class (see {@link parseUserAgent}) and caches results, because parsing
 * runs a few hundred regular expressions and the same user agents repeat all day.
 *
 * Run the bot check (`detectBot` in `bot.ts`) before this: crawlers such as Googlebot Smartphone send a
 * complete Android Chrome user agent and would otherwise be counted as mobile Chrome visitors.
 */
import { UAParser } from 'ua-parser-js'
import { createTtlCache } from '../../shared/ttl-cache.js'

/** Device class of a visitor; '' when it cannot be told. */
export type DeviceType =
  | 'desktop'
  | 'mobile'
  | 'tablet'
  | 'console'
  | 'smarttv'
  | 'wearable'
  | 'embedded'
  | ''

/**
 * Parsed user agent. Every string is '' when unknown.
 *
 * - `browser`: ua-parser-js browser name, e.g. 'Chrome', 'Mobile Safari', 'Firefox', 'Edge'.
 * - `browser_version`: full version as written in the user agent, e.g. '120.0.6099.216'.
 * - `operating_system`: ua-parser-js OS name, e.g. 'Windows', 'Mac OS', 'iOS', 'Android', 'Linux'.
 * - `operating_system_version`: e.g. '10', '10.15.7', '17.1'.
 * - `device_type`: see {@link parseUserAgent} for how it is decided.
 */
export interface UserAgentInfo {
  browser: string
  browser_version: string
  operating_system: string
  operating_system_version: string
  device_type: DeviceType
}

/** What is cached per user-agent string: everything that does not depend on the screen width. */
interface ParsedUserAgent {
  readonly browser: string
  readonly browserVersion: string
  readonly os: string
  readonly osVersion: string
  /** ua-parser-js device type when it is one of the six 1.x types, else ''. */
  readonly deviceType: DeviceType
}

/** ua-parser-js reads at most this many characters; longer strings share the cache entry of their prefix. */
const MAX_UA_LENGTH = 500
const CACHE_ENTRIES = 5_000

/** Upper bound (inclusive, CSS pixels) of `screen.width` for phones. */
const MAX_PHONE_WIDTH = 767
/** Upper bound (inclusive, CSS pixels) of `screen.width` at which a Mac is taken to be an iPad. */
const MAX_IPAD_WIDTH = 1024

const PARSER_DEVICE_TYPES: ReadonlySet<string> = new Set([
  'mobile',
  'tablet',
  'console',
  'smarttv',
  'wearable',
  'embedded',
])

/** OS names (lower case) of phones and tablets as ua-parser-js 1.x spells them. */
const HANDHELD_OS: ReadonlySet<string> = new Set([
  'android',
  'android-x86',
  'ios',
  'ipados',
  'harmonyos',
  'openharmony',
  'kaios',
  'windows phone',
  'windows phone os',
  'windows mobile',
  'blackberry',
  'rim tablet os',
  'symbian',
  'series40',
  'firefox os',
  'sailfish',
  'ubuntu touch',
  'bada',
  'meego',
  'maemo',
  'palm',
])

/** OS names (lower case) of desktop and laptop computers as ua-parser-js 1.x spells them. */
const DESKTOP_OS: ReadonlySet<string> = new Set([
  'windows',
  'mac os',
  'macos',
  'chrome os',
  'chromium os',
  'linux',
  'ubuntu',
  'kubuntu',
  'xubuntu',
  'lubuntu',
  'debian',
  'fedora',
  'red hat',
  'centos',
  'suse',
  'opensuse',
  'gentoo',
  'arch',
  'mint',
  'manjaro',
  'slackware',
  'mandriva',
  'mageia',
  'deepin',
  'pclinuxos',
  'sabayon',
  'linspire',
  'linpus',
  'joli',
  'zenwalk',
  'knoppix',
  'raspbian',
  'gnu',
  'hurd',
  'freebsd',
  'openbsd',
  'netbsd',
  'dragonfly',
  'ghostbsd',
  'pc-bsd',
  'solaris',
  'aix',
  'hp-ux',
  'irix',
  'unix',
  'haiku',
  'beos',
  'os/2',
  'risc os',
  'amigaos',
  'morphos',
  'serenityos',
  'minix',
  'plan 9',
])

const parser = new UAParser('')
const cache = createTtlCache<string, ParsedUserAgent>({
  ttlMs: Number.POSITIVE_INFINITY,
  maxEntries: CACHE_ENTRIES,
  lru: true,
})

/**
 * Parses a User-Agent header into browser, OS and device class.
 *
 * @param ua the raw User-Agent header; only its first 500 characters are read.
 * @param screenWidth optional `screen.width` reported by the tracker, in CSS pixels; ignored unless it is a
 *   finite number > 0.
 * @returns a new {@link UserAgentInfo} object (callers may mutate it); never throws.
 *
 * `device_type` is decided in this order:
 * 1. ua-parser-js's device type when it names one ('mobile', 'tablet', 'console', 'smarttv', 'wearable',
 *    'embedded').
 * 2. With a screen width: ≤ 767 → 'mobile'; ≥ 768 on a phone/tablet OS (Android, iOS, iPadOS, HarmonyOS,
 *    KaiOS, Windows Phone...) → 'tablet', because such an OS never runs on a desktop; 768–1024 on Mac OS →
 *    'tablet' (iPadOS 13+ Safari sends a Macintosh user agent by default and no current Mac screen is that
 *    narrow); anything else ≥ 768 → 'desktop'.
 * 3. Without a screen width: 'desktop' when the OS is a desktop OS (Windows, Mac OS, Chrome OS, Linux and
 *    its distributions, the BSDs, Solaris...), else ''.
 *
 * Data source: ua-parser-js 1.x regular expressions (MIT). Results are memoised in a 5,000-entry LRU cache
 * keyed by the (truncated) user-agent string; the screen-width rule is applied after the cache.
 */
export function parseUserAgent(ua: string, screenWidth?: number): UserAgentInfo {
  const parsed = parseCached(ua)
  return {
    browser: parsed.browser,
    browser_version: parsed.browserVersion,
    operating_system: parsed.os,
    operating_system_version: parsed.osVersion,
    device_type: decideDeviceType(parsed, screenWidth),
  }
}

function parseCached(ua: string): ParsedUserAgent {
  const key = ua.length > MAX_UA_LENGTH ? ua.slice(0, MAX_UA_LENGTH) : ua
  const hit = cache.get(key)
  if (hit) return hit
  const parsed = parseUncached(key)
  cache.set(key, parsed)
  return parsed
}

function parseUncached(ua: string): ParsedUserAgent {
  if (ua.trim() === '') return { browser: '', browserVersion: '', os: '', osVersion: '', deviceType: '' }
  parser.setUA(ua)
  const browser = parser.getBrowser()
  const os = parser.getOS()
  const type = parser.getDevice().type ?? ''
  return {
    browser: browser.name ?? '',
    browserVersion: browser.version ?? '',
    os: os.name ?? '',
    osVersion: os.version ?? '',
    deviceType: PARSER_DEVICE_TYPES.has(type) ? (type as DeviceType) : '',
  }
}

function decideDeviceType(parsed: ParsedUserAgent, screenWidth: number | undefined): DeviceType {
  if (parsed.deviceType !== '') return parsed.deviceType
  const os = parsed.os.toLowerCase()
  if (screenWidth !== undefined && Number.isFinite(screenWidth) && screenWidth > 0) {
    if (screenWidth <= MAX_PHONE_WIDTH) return 'mobile'
    if (HANDHELD_OS.has(os)) return 'tablet'
    if (os === 'mac os' && screenWidth <= MAX_IPAD_WIDTH) return 'tablet'
    return 'desktop'
  }
  return DESKTOP_OS.has(os) ? 'desktop' : ''
}
