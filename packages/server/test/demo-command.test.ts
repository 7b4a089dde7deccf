/**
 * `npm run demo` as a newcomer runs it, from the repository's root with the README's options
 * (`--data-dir DIR`, `--log FILE`, `--fresh`): it keeps its data where it was told, refuses to
 * overwrite a demo unless `--fresh`, says how to open it on the port `npm start` will use and names its
 * site; and `npm start` on that directory signs in with the printed account and shows the log as a real
 * site would: its days (the log's own times, moved so that it ends now), sessions of several pages with
 * their durations. The expected figures are counted here from the generated log.
 */
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { SERVER_BUNDLE_ENV } from '../src/testing/test-run-env.js'

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const repositoryRoot = path.resolve(serverRoot, '../..')

const FIREFOX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:27.0) Gecko/20100101 Firefox/27.0'
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

/** One line of the generated log, and whether a tracking script would have reported it. */
interface LoggedRequest {
  line: string
  time: number
  page: boolean
}

/** `[17/May/2015:10:05:03 +0000]` of an epoch ms. */
function logTime(ms: number): string {
  const d = new Date(ms)
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][
    d.getUTCMonth()
  ]
  const two = (n: number) => String(n).padStart(2, '0')
  return `${two(d.getUTCDate())}/${month}/${d.getUTCFullYear()}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`
}

/**
 * Four days of a small site: each day a visitor reads three pages (at +0 s, +40 s, +95 s: one session of
 * 95 s) and another opens one page (a session of 0 s): 16 pageviews, 8 sessions, and 8 visitors (each
 * address and user agent on one day only); each day also an image, a crawler and a request without a
 * user agent, which are not pageviews.
 */
function generateLog(): LoggedRequest[] {
  const requests: LoggedRequest[] = []
  const at = (ip: string, time: number, target: string, agent: string, page: boolean) =>
    requests.push({
      line: `${ip} - - [${logTime(time)}] "GET ${target} HTTP/1.1" 200 1234 "-" "${agent || '-'}"`,
      time,
      page,
    })
  const firstDay = Date.UTC(2015, 4, 17)
  const readers = ['81.2.69.160', '93.184.216.34', '185.60.216.35', '151.101.1.69']
  for (let day = 0; day < 4; day++) {
    const morning = firstDay + day * 86_400_000 + 10 * 3_600_000
    const reader = readers[day] ?? ''
    at(reader, morning, '/', FIREFOX, true)
    at(reader, morning + 5_000, '/images/logo.png', FIREFOX, false)
    at(reader, morning + 40_000, '/about', FIREFOX, true)
    at(reader, morning + 95_000, '/blog/post.html', FIREFOX, true)
    at(readers[(day + 1) % 4] ?? '', morning + 5 * 3_600_000, `/blog/day-${day}`, CHROME, true)
    at('66.249.66.1', morning + 2 * 3_600_000, '/about', GOOGLEBOT, false)
    at('198.51.100.7', morning + 3 * 3_600_000, '/', '', false)
  }
  return requests
}

/** The UTC days of the pages once moved so that the latest lands at `now`, with their pageviews. */
function pageviewsByDay(requests: LoggedRequest[], now: number): Map<string, number> {
  const pages = requests.filter((r) => r.page)
  const offset = now - Math.max(...pages.map((r) => r.time))
  const days = new Map<string, number>()
  for (const page of pages) {
    const day = new Date(page.time + offset).toISOString().slice(0, 10)
    days.set(day, (days.get(day) ?? 0) + 1)
  }
  return days
}

/** The root `npm run demo -- ARGS`, as the README writes it. */
function npmRunDemo(args: string[], env: Record<string, string> = {}) {
  return spawnSync('npm', ['run', 'demo', '--', ...args], {
    cwd: repositoryRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.homedir(),
      // The current sources, bundled by the test run (bin/pathlight.js reads it).
      [SERVER_BUNDLE_ENV]: process.env[SERVER_BUNDLE_ENV] ?? '',
      ...env,
    },
    encoding: 'utf8',
    timeout: 120_000,
  })
}

describe('npm run demo', () => {
  it('takes --data-dir, --log and --fresh through the root script and shows days, sessions and durations', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pl-demo-'))
    const log = path.join(root, 'access.log')
    const requests = generateLog()
    fs.writeFileSync(log, `${requests.map((r) => r.line).join('\n')}\n`)
    const dataDir = path.join(root, 'my-demo')
    try {
      const first = npmRunDemo(['--data-dir', dataDir, '--log', log], { PORT: '4123' })
      expect(first.status, first.stderr).toBe(0)
      expect(first.stdout).toContain(`log:  ${log}`)
      expect(first.stdout).toContain(`data: ${dataDir}`)
      expect(fs.existsSync(path.join(dataDir, 'events'))).toBe(true)
      expect(fs.existsSync(path.join(repositoryRoot, 'data-demo'))).toBe(false)
      // Units named; the port `npm start` will use (PORT) and the site to open.
      expect(first.stdout).toContain('16 pageviews in 8 sessions of 8 visitors')
      expect(first.stdout).toContain('Top pages, by pageviews:')
      expect(first.stdout).toContain(`DATA_DIR=${dataDir} npm start`)
      expect(first.stdout).toContain('then http://127.0.0.1:4123 and sign in')
      expect(first.stdout).toContain('the site "Demo site" (example.com): http://127.0.0.1:4123/sites/1')
      expect(first.stdout).not.toContain(':3000')
      expect(first.stdout).toMatch(/bot:crawler\s+4\n/)
      expect(first.stdout).toMatch(/bot:empty_user_agent\s+4\n/)
      const signIn = /sign in as (\S+), password "([^"]+)"/.exec(first.stdout)
      expect(signIn).not.toBeNull()

      const again = npmRunDemo(['--data-dir', dataDir, '--log', log])
      expect(again.status).toBe(1)
      expect(again.stderr).toContain('already holds data')
      expect(again.stderr).toContain('npm run demo -- --fresh')
      const before = Date.now()
      const fresh = npmRunDemo(['--data-dir', dataDir, '--log', log, '--fresh'])
      const after = Date.now()
      expect(fresh.status, fresh.stderr).toBe(0)

      // DATA_DIR=<dir> npm start.
      const server = spawn(process.execPath, ['bin/pathlight.js', 'serve'], {
        cwd: serverRoot,
        env: {
          PATH: process.env.PATH ?? '',
          DATA_DIR: dataDir,
          PORT: '0',
          [SERVER_BUNDLE_ENV]: process.env[SERVER_BUNDLE_ENV] ?? '',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      try {
        let output = ''
        server.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString()
        })
        await expect.poll(() => output.includes('Pathlight is running'), { timeout: 60_000 }).toBe(true)
        const port = /Starting Pathlight on port (\d+)/.exec(output)?.[1]
        const base = `http://127.0.0.1:${port}`
        const signedIn = await fetch(`${base}/api/auth/sign-in/email`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: base },
          body: JSON.stringify({ email: signIn?.[1], password: signIn?.[2] }),
        })
        expect(signedIn.status).toBe(200)
        const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
        // The start banner names the existing site at the real port.
        expect(output).toContain(`    Demo site (example.com): ${base}/sites/1\n`)
        expect(output).not.toContain('Then create an organization and a site')

        // The log's days, as counted here: with the clock before and after the demo (one of them, should
        // a day end during the run).
        const expected = [pageviewsByDay(requests, before), pageviewsByDay(requests, after)]
        const days = [...(expected[1]?.keys() ?? [])].sort()
        expect(days.length).toBeGreaterThanOrEqual(4)
        const query = `start_date=${days[0]}&end_date=${days[days.length - 1]}&time_zone=UTC`
        const get = async (url: string) => {
          const response = await fetch(`${base}${url}`, { headers: { cookie } })
          expect(response.status, url).toBe(200)
          return (await response.json()) as { data: Record<string, unknown> }
        }
        const stats = (await get(`/api/sites/1/stats?${query}`)).data.current as Record<string, number>
        expect(stats).toMatchObject({ pageviews: 16, sessions: 8, visitors: 8 })
        // Four sessions of 95 s and four of one page (0 s).
        expect(stats.session_duration).toBeCloseTo((4 * 95) / 8, 0)
        const series = (await get(`/api/sites/1/series?${query}&bucket=day`)).data as unknown as {
          time: string
          pageviews: number
        }[]
        const shown = new Map(
          series.filter((p) => p.pageviews > 0).map((p) => [p.time.slice(0, 10), p.pageviews]),
        )
        expect(expected.map((byDay) => [...byDay.entries()].sort())).toContainEqual(
          [...shown.entries()].sort(),
        )
      } finally {
        server.kill('SIGTERM')
        await new Promise((resolve) => server.once('exit', resolve))
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true })
    }
  }, 300_000)
})
