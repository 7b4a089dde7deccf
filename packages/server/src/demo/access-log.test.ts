import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { type AccessLogLine, isPageRequest, parseAccessLogLine, readAccessLog } from './access-log.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const repoRoot = path.resolve(here, '../../../..')
const demoLog = path.resolve(repoRoot, 'packages/server/demo-data/elastic-examples-apache_logs.txt')
const sharedLogs = path.resolve(repoRoot, '../shared/data/access-logs')
const hasShared = existsSync(sharedLogs)
const skipNote = hasShared ? '' : ` (skipped: ${sharedLogs} is absent)`

/** Non-blank line count and parsed count of a log file. */
function parseRate(file: string): { total: number; parsed: number; lines: AccessLogLine[] } {
  const text = readFileSync(file, 'utf8')
  const total = text.split('\n').filter((line) => line.trim() !== '').length
  const lines = [...readAccessLog(text)]
  return { total, parsed: lines.length, lines }
}

/** The `n`th line (1-based) of a file, exactly as stored. */
function lineOf(file: string, n: number): string {
  const line = readFileSync(file, 'utf8').split('\n')[n - 1]
  if (line === undefined) throw new Error(`${file} has no line ${n}`)
  return line
}

function mustParse(line: string): AccessLogLine {
  const parsed = parseAccessLogLine(line)
  if (!parsed) throw new Error(`did not parse: ${line}`)
  return parsed
}

describe('parseAccessLogLine', () => {
  it('parses a textbook combined line and applies the UTC offset', () => {
    const line =
      '127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /a?b=c HTTP/1.0" 200 2326 ' +
      '"http://www.example.com/start.html" "Mozilla/4.08 [en] (Win98; I ;Nav)"'
    expect(parseAccessLogLine(line)).toEqual({
      ip: '127.0.0.1',
      time: new Date('2000-10-10T20:55:36Z'),
      method: 'GET',
      path: '/a',
      querystring: 'b=c',
      status: 200,
      bytes: 2326,
      referrer: 'http://www.example.com/start.html',
      userAgent: 'Mozilla/4.08 [en] (Win98; I ;Nav)',
    })
  })

  it('maps - referrer, user agent and bytes to empty/0 and ignores trailing spaces and CR', () => {
    const parsed = mustParse('1.2.3.4 - - [22/Dec/2022:02:26:58 -0800] "GET / HTTP/1.1" 304 - "-" "-" \r')
    expect(parsed).toMatchObject({ bytes: 0, referrer: '', userAgent: '', status: 304 })
  })

  it('accepts the common format (no referrer or user agent) and ignores extra trailing fields', () => {
    expect(mustParse('1.2.3.4 - - [01/Jan/2020:00:00:00 +0000] "GET /x HTTP/1.1" 200 5')).toMatchObject({
      path: '/x',
      referrer: '',
      userAgent: '',
    })
    const extra = mustParse(
      '1.2.3.4 - - [01/Jan/2020:00:00:00 +0000] "GET / HTTP/1.1" 200 5 "r" "ua" "10.0.0.1"',
    )
    expect(extra).toMatchObject({ referrer: 'r', userAgent: 'ua' })
  })

  it('keeps a quote that does not end a field and decodes printable \\xHH (nginx) escapes', () => {
    const parsed = mustParse(
      '1.2.3.4 - - [01/Jan/2020:00:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "a "b"c\\x22 \\x01"',
    )
    expect(parsed.userAgent).toBe('a "b"c" \\x01')
  })

  it('keeps malformed request lines usable or empty instead of dropping the line', () => {
    const base = '5.6.7.8 - - [01/Jan/2020:00:00:00 +0000] '
    expect(mustParse(`${base}"-" 400 0 "-" "-"`)).toMatchObject({ method: '', path: '', status: 400 })
    expect(mustParse(`${base}"\\x16\\x03\\x01\\x00" 400 226 "-" "-"`)).toMatchObject({ method: '', path: '' })
    expect(mustParse(`${base}"GET /old" 200 10 "-" "-"`)).toMatchObject({ method: 'GET', path: '/old' })
    expect(mustParse(`${base}"GET /a b?c=d HTTP/1.1" 200 1 "-" "-"`)).toMatchObject({
      path: '/a b',
      querystring: 'c=d',
    })
    expect(mustParse(`${base}"GET /q"x HTTP/1.1" 404 1 "-" "-"`)).toMatchObject({ path: '/q"x' })
    expect(mustParse(`${base}"GET /q" x HTTP/1.1" 404 1 "-" "-"`)).toMatchObject({
      path: '/q" x',
      status: 404,
    })
    expect(mustParse(`${base}"GET http://h.example?x=1 HTTP/1.1" 200 1 "-" "-"`)).toMatchObject({
      path: '/',
      querystring: 'x=1',
    })
  })

  it('returns null only for unusable lines', () => {
    expect(parseAccessLogLine('')).toBeNull()
    expect(parseAccessLogLine('   ')).toBeNull()
    expect(parseAccessLogLine('not a log line at all')).toBeNull()
    expect(parseAccessLogLine('1.2.3.4 - - [yesterday] "GET / HTTP/1.1" 200 5 "-" "-"')).toBeNull()
    expect(parseAccessLogLine('1.2.3.4 - - [01/Foo/2020:00:00:00 +0000] "GET / HTTP/1.1" 200 5')).toBeNull()
    expect(parseAccessLogLine('1.2.3.4 - - [01/Jan/2020:00:00:00 +0000] "GET / HTTP/1.1" OK 5')).toBeNull()
    expect(parseAccessLogLine('1.2.3.4 - - [01/Jan/2020:00:00:00 +0000] "GET / HTTP/1.1" 999 5')).toBeNull()
  })
})

describe('isPageRequest', () => {
  const page = (method: string, target: string, status = 200): boolean => {
    const line = `1.2.3.4 - - [01/Jan/2020:00:00:00 +0000] "${method} ${target} HTTP/1.1" ${status} 1 "-" "-"`
    return isPageRequest(mustParse(line))
  }

  it('accepts GET 200/304 documents', () => {
    for (const target of [
      '/',
      '/blog/',
      '/about',
      '/a/b.html',
      '/x.PHP?id=2',
      '/presentations/logstash-1.0/',
    ]) {
      expect(page('GET', target), target).toBe(true)
    }
    expect(page('GET', '/', 304)).toBe(true)
  })

  it('rejects other methods, statuses, assets, downloads and feeds', () => {
    expect(page('HEAD', '/')).toBe(false)
    expect(page('POST', '/join_form')).toBe(false)
    for (const status of [206, 301, 302, 404, 500])
      expect(page('GET', '/', status), String(status)).toBe(false)
    const notPages = [
      '/style.css',
      '/app.js',
      '/favicon.ico',
      '/robots.txt',
      '/a.tar.gz',
      '/self.logs/access.log.2020-11-06',
      '/scripts/x.py',
      '/feed',
      '/blog/rss/',
      '/?flav=rss20',
      '/blog/tags/puppet?flav=atom',
      '/?feed=rss2',
      '*',
    ]
    for (const target of notPages) expect(page('GET', target), target).toBe(false)
  })
})

describe('demo log (packages/server/demo-data, always present)', () => {
  it('parses all 10,000 lines (≥ 99.9 %) and finds the page requests', () => {
    const { total, parsed, lines } = parseRate(demoLog)
    expect(total).toBe(10_000)
    expect(parsed / total).toBeGreaterThanOrEqual(0.999)
    expect(parsed).toBe(10_000)
    expect(lines.filter(isPageRequest).length).toBe(2869)
    expect(new Set(lines.map((line) => line.ip)).size).toBe(1753)
    expect(lines[0]?.time.toISOString()).toBe('2015-05-17T10:05:03.000Z')
  })

  it('line 8899: Googlebot with an unterminated user-agent quote', () => {
    expect(mustParse(lineOf(demoLog, 8899))).toMatchObject({
      ip: '46.118.127.106',
      path: '/scripts/grok-py-test/configlib.py',
      status: 200,
      bytes: 235,
      referrer: '',
      userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html',
    })
  })
})

// These read the workplace's shared/data logs beside the checkout; a clone elsewhere (CI's, say) has none,
// and the tests skip with the reason in the suite's name. The demo log the project ships is tested above.
describe(`shared/data access logs${skipNote}`, () => {
  const files = [
    ['basjes-hackers-access.txt', 3456],
    ['elastic-examples-apache_logs.txt', 10_000],
    ['secrepo-access-2018-12-15.txt', 4961],
    ['secrepo-access-2021-10-22_to_27.txt', 5854],
    ['secrepo-access-2022-12-22.txt', 1262],
  ] as const
  const shared = (name: string): string => path.join(sharedLogs, name)

  for (const [name, lineCount] of files) {
    it.skipIf(!hasShared)(`${name}: parses ≥ 99.9 % of ${lineCount} lines`, () => {
      const { total, parsed, lines } = parseRate(shared(name))
      expect(total).toBe(lineCount)
      expect(parsed / total).toBeGreaterThanOrEqual(0.999)
      for (const line of lines) {
        expect(Number.isNaN(line.time.getTime())).toBe(false)
        expect(line.ip).not.toBe('')
      }
    })
  }

  it.skipIf(!hasShared)('basjes: IPv6 clients and absolute-form targets', () => {
    const file = shared('basjes-hackers-access.txt')
    const lines = [...readAccessLog(readFileSync(file, 'utf8'))]
    const v6 = lines.filter((line) => line.ip.includes(':'))
    expect(v6.length).toBe(12)
    expect(v6[0]).toMatchObject({ ip: '2001:41d0:8:f69::1', method: 'GET', path: '/', status: 200 })
    const absolute = lines.find((line) => line.querystring.startsWith('came_from=http%3A//niels.basj.es'))
    expect(absolute?.path).toBe('/acl_users/credentials_cookie_auth/require_login')
  })

  it.skipIf(!hasShared)('secrepo 2018: trailing space on every line, UA wrapped in escaped quotes', () => {
    const file = shared('secrepo-access-2018-12-15.txt')
    expect(lineOf(file, 192).endsWith('" ')).toBe(true)
    const iphone = mustParse(lineOf(file, 192))
    expect(iphone.ip).toBe('188.76.8.81')
    expect(iphone.userAgent).toMatch(/^"Mozilla\/5\.0 \(iPhone; .*Safari\/604\.1"$/)
    expect(mustParse(lineOf(file, 1)).userAgent).toBe(
      'Mozilla/5.0 (compatible; SeznamBot/3.2; +http://napoveda.seznam.cz/en/seznambot-intro/)',
    )
  })

  it.skipIf(!hasShared)('secrepo 2021: SQL injection with \\" in the referrer, "User-Agent" prefix', () => {
    const file = shared('secrepo-access-2021-10-22_to_27.txt')
    const injected = mustParse(lineOf(file, 327))
    expect(injected).toMatchObject({ path: '/user.php', querystring: 'act=login', status: 404 })
    expect(injected.referrer).toContain('{s:3:"num";s:288:"*/ union select 1,0x272f2a')
    expect(injected.referrer.endsWith(';s:2:"id";s:3:"\'/*";}')).toBe(true)
    expect(injected.userAgent).toBe('Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.2)')
    expect(mustParse(lineOf(file, 2110)).userAgent).toBe(
      'User-Agent" "Mozilla/5.0 (Windows NT 6.1;) Gecko/20100101 Firefox/13.0.1',
    )
  })

  it.skipIf(!hasShared)('secrepo 2022: "-" user agents on 56 % of lines', () => {
    const { lines } = parseRate(shared('secrepo-access-2022-12-22.txt'))
    const empty = lines.filter((line) => line.userAgent === '').length
    expect(empty).toBe(713)
    expect(empty / lines.length).toBeCloseTo(0.56, 2)
  })
})
