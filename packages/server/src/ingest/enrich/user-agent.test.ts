import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { detectBot } from './bot.js'
import { parseUserAgent } from './user-agent.js'

/** A case of ua-parser-js's own test suite; the string 'undefined' means "not detected". */
interface CorpusCase {
  desc: string
  ua: string
  expect: Record<string, string | undefined>
}

function loadCorpus(kind: 'browser' | 'os' | 'device'): CorpusCase[] {
  const file = new URL(`../../../test-data/ua-parser-js-1.0.41-${kind}-test.json`, import.meta.url)
  return JSON.parse(readFileSync(file, 'utf8')) as CorpusCase[]
}

/** Expected value as parseUserAgent reports it: '' for undetected. */
function expected(value: string | undefined): string {
  return value === undefined || value === 'undefined' ? '' : value
}

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) ' +
  'Chrome/120.0.0.0 Safari/537.36'
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) ' +
  'Version/17.1 Mobile/15E148 Safari/604.1'
const SAFARI_IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 ' +
  'Mobile/15E148 Safari/604.1'
const SAFARI_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 ' +
  'Safari/605.1.15'
const GOOGLEBOT_SMARTPHONE =
  'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) ' +
  'Chrome/120.0.6099.216 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0'
const CHROME_OS =
  'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) ' +
  'Chrome/120.0.0.0 Safari/537.36'
/** Android without any phone/tablet hint, so ua-parser-js gives no device type (from its device corpus). */
const ANDROID_NO_TYPE = 'Mozilla/5.0 (Linux; U; Android 6.0.1; i980 Build/MRA58K)'

describe('parseUserAgent on the ua-parser-js 1.0.41 corpora', () => {
  it('matches every browser name and version (257 cases)', () => {
    const cases = loadCorpus('browser')
    const mismatches = cases
      .map((c) => {
        const info = parseUserAgent(c.ua)
        const want = { name: expected(c.expect.name), version: expected(c.expect.version) }
        const got = { name: info.browser, version: info.browser_version }
        return want.name === got.name && want.version === got.version ? null : { desc: c.desc, want, got }
      })
      .filter((m) => m !== null)
    expect(cases).toHaveLength(257)
    expect(mismatches).toEqual([])
  })

  it('matches every OS name and version (150 cases)', () => {
    const cases = loadCorpus('os')
    const mismatches = cases
      .map((c) => {
        const info = parseUserAgent(c.ua)
        const want = { name: expected(c.expect.name), version: expected(c.expect.version) }
        const got = { name: info.operating_system, version: info.operating_system_version }
        return want.name === got.name && want.version === got.version ? null : { desc: c.desc, want, got }
      })
      .filter((m) => m !== null)
    expect(cases).toHaveLength(150)
    expect(mismatches).toEqual([])
  })

  it('reports the device type of every device case that has one (747 of 753)', () => {
    const cases = loadCorpus('device')
    const typed = cases.filter((c) => expected(c.expect.type) !== '')
    const mismatches = typed
      .map((c) => ({ desc: c.desc, want: c.expect.type, got: parseUserAgent(c.ua).device_type }))
      .filter((m) => m.want !== m.got)
    expect(cases).toHaveLength(753)
    expect(typed).toHaveLength(747)
    expect(mismatches).toEqual([])
  })
})

describe('parseUserAgent', () => {
  it('parses Chrome on Windows as a desktop', () => {
    expect(parseUserAgent(CHROME_WINDOWS)).toEqual({
      browser: 'Chrome',
      browser_version: '120.0.0.0',
      operating_system: 'Windows',
      operating_system_version: '10',
      device_type: 'desktop',
    })
  })

  it('parses Safari on iPhone as mobile', () => {
    expect(parseUserAgent(SAFARI_IPHONE)).toEqual({
      browser: 'Mobile Safari',
      browser_version: '17.1',
      operating_system: 'iOS',
      operating_system_version: '17.1',
      device_type: 'mobile',
    })
  })

  it('parses an iPad as a tablet whatever the screen width', () => {
    expect(parseUserAgent(SAFARI_IPAD).device_type).toBe('tablet')
    expect(parseUserAgent(SAFARI_IPAD, 375).device_type).toBe('tablet')
  })

  it('parses Googlebot Smartphone as mobile Chrome, which is why detectBot must run first', () => {
    expect(parseUserAgent(GOOGLEBOT_SMARTPHONE)).toMatchObject({
      browser: 'Chrome',
      operating_system: 'Android',
      device_type: 'mobile',
    })
    expect(detectBot(GOOGLEBOT_SMARTPHONE)).toBe('crawler')
  })

  it('treats desktop operating systems as desktop without a screen width', () => {
    expect(parseUserAgent(FIREFOX_LINUX)).toMatchObject({ browser: 'Firefox', device_type: 'desktop' })
    expect(parseUserAgent(CHROME_OS)).toMatchObject({
      operating_system: 'Chromium OS',
      device_type: 'desktop',
    })
    expect(parseUserAgent(SAFARI_MAC)).toMatchObject({ operating_system: 'Mac OS', device_type: 'desktop' })
  })

  it('returns empty strings for an empty or unknown user agent', () => {
    const empty = {
      browser: '',
      browser_version: '',
      operating_system: '',
      operating_system_version: '',
      device_type: '',
    }
    expect(parseUserAgent('')).toEqual(empty)
    expect(parseUserAgent('   ')).toEqual(empty)
    expect(parseUserAgent('curl/8.4.0')).toEqual(empty)
  })

  it('decides the device type from the screen width when the user agent does not', () => {
    expect(parseUserAgent(ANDROID_NO_TYPE).device_type).toBe('')
    expect(parseUserAgent(ANDROID_NO_TYPE, 360).device_type).toBe('mobile')
    expect(parseUserAgent(ANDROID_NO_TYPE, 767).device_type).toBe('mobile')
    expect(parseUserAgent(ANDROID_NO_TYPE, 768).device_type).toBe('tablet')
    expect(parseUserAgent(ANDROID_NO_TYPE, 1280).device_type).toBe('tablet')
    expect(parseUserAgent(CHROME_WINDOWS, 1024).device_type).toBe('desktop')
    expect(parseUserAgent(CHROME_WINDOWS, 500).device_type).toBe('mobile')
    expect(parseUserAgent('curl/8.4.0', 1920).device_type).toBe('desktop')
  })

  it('takes a Mac with an iPad-sized screen for an iPad (iPadOS sends a Macintosh user agent)', () => {
    expect(parseUserAgent(SAFARI_MAC, 820).device_type).toBe('tablet')
    expect(parseUserAgent(SAFARI_MAC, 1024).device_type).toBe('tablet')
    expect(parseUserAgent(SAFARI_MAC, 1440).device_type).toBe('desktop')
  })

  it('ignores screen widths that are not positive finite numbers', () => {
    for (const width of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(parseUserAgent(ANDROID_NO_TYPE, width).device_type).toBe('')
      expect(parseUserAgent(CHROME_WINDOWS, width).device_type).toBe('desktop')
    }
  })

  it('returns equal but distinct objects from the cache', () => {
    const first = parseUserAgent(SAFARI_IPHONE)
    first.browser = 'mutated by a caller'
    const second = parseUserAgent(SAFARI_IPHONE)
    const third = parseUserAgent(SAFARI_IPHONE)
    expect(second).not.toBe(third)
    expect(second).toEqual(third)
    expect(second.browser).toBe('Mobile Safari')
  })

  it('reads only the first 500 characters, like ua-parser-js', () => {
    const edgeTokenAt500 = `${CHROME_WINDOWS.padEnd(500, ' ')} Edg/120.0.2210.91`
    expect(parseUserAgent(`${CHROME_WINDOWS} Edg/120.0.2210.91`).browser).toBe('Edge')
    expect(parseUserAgent(edgeTokenAt500)).toEqual(parseUserAgent(CHROME_WINDOWS))
  })

  it('keeps working past the cache capacity', () => {
    for (let i = 0; i < 6_000; i++) parseUserAgent(`${FIREFOX_LINUX} build/${i}`)
    expect(parseUserAgent(CHROME_WINDOWS).browser).toBe('Chrome')
  })
})
