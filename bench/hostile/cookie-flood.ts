/**
 * A cookie-read flood: one hostile tenant sends `BENCH_FLOOD_RATE` (default 50) report requests a second
 * with session cookies, from `BENCH_HOSTILE_USERS` (default 3) members of its organization, at a fixed
 * rate whatever the answers (an open loop, as a script would), while another tenant reads its own
 * reports one after another with its cookie, at most `BENCH_REPORT_RATE` (default 4) a second, and its
 * site is tracked at `BENCH_TRACK_RATE` (default 50)
 * keyless pageviews a second, each given 10 s to answer; each load runs in a process of its own
 * (`open-loop.mjs`), so that one client's CPU and connections do not distort another's figures. The server runs as `npm start` runs it
 * (`bin/pathlight.js serve` on the compiled `dist/`, embedded chDB + SQLite, shipped defaults).
 *
 * Two phases of `BENCH_SECONDS` (default 30) each: the other tenant alone, then beside the flood.
 * Printed per phase: the other tenant's report p50 / p95 and its tracking success rate (targets under
 * the flood: tracking 100 %, reports p95 under 2 s), and the hostile tenant's answers by status.
 *
 *   npm run build -w @pathlight/server && npx tsx bench/hostile/cookie-flood.ts
 *
 * The last stdout line is the same figures as JSON.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { seedInstance } from '../../packages/server/src/demo/seed-instance.js'
import { spawnServer } from '../../packages/server/src/testing/start-server-process.js'
import { positiveInteger } from '../positive-integer.js'

const FLOOD_RATE = positiveInteger('BENCH_FLOOD_RATE', 50)
const HOSTILE_USERS = positiveInteger('BENCH_HOSTILE_USERS', 3)
const TRACK_RATE = positiveInteger('BENCH_TRACK_RATE', 50)
const SECONDS = positiveInteger('BENCH_SECONDS', 30)
const REPORT_RATE = positiveInteger('BENCH_REPORT_RATE', 4)
const EVENTS = positiveInteger('BENCH_EVENTS', 20_000)

const CHROME_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const RANGE = 'start_date=2026-01-01&end_date=2026-01-31'
const YEAR = 'start_date=2025-06-01&end_date=2026-05-31'

const server = await spawnServer({
  entry: 'build',
  env: process.env.UV_THREADPOOL_SIZE ? { UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE } : {},
})
try {
  const base = server.baseUrl
  const hostile = await seedInstance(base, { email: 'hostile@example.com', domain: 'hostile.example' })
  const other = await seedInstance(base, { email: 'other@example.com', domain: 'other.example' })

  const post = async (url: string, body: unknown, cookie: string) => {
    const response = await fetch(`${base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base, cookie },
      body: JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`)
    return response
  }
  // The hostile organization's further members, each with a session of its own.
  const hostileCookies = [hostile.cookie]
  for (let i = 1; i < HOSTILE_USERS; i++) {
    const email = `hostile-${i}@example.com`
    const signUp = await post(
      '/api/auth/sign-up/email',
      { name: `Hostile ${i}`, email, password: 'correct horse battery staple' },
      '',
    )
    hostileCookies.push((signUp.headers.get('set-cookie') ?? '').split(';')[0] ?? '')
    await post(
      `/api/organizations/${hostile.organizationId}/members`,
      { email, role: 'member' },
      hostile.cookie,
    )
  }

  // Both sites hold EVENTS events over January 2026, in imports of 10,000 lines.
  for (const tenant of [hostile, other]) {
    for (let offset = 0; offset < EVENTS; offset += 10_000) {
      const lines = Array.from({ length: Math.min(10_000, EVENTS - offset) }, (_, j) => {
        const i = offset + j
        return JSON.stringify({
          timestamp: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00Z`,
          pathname: `/page-${i % 40}`,
          referrer: i % 3 === 0 ? 'https://www.google.com/' : '',
          user_id: `visitor-${i % 3000}`,
        })
      })
      const response = await fetch(`${base}/api/sites/${tenant.siteId}/import`, {
        method: 'POST',
        headers: { cookie: tenant.cookie, origin: base, 'content-type': 'application/x-ndjson' },
        body: `${lines.join('\n')}\n`,
      })
      if (response.status !== 200) throw new Error(`import: ${response.status} ${await response.text()}`)
    }
  }

  const timed = async (url: string, init: RequestInit) => {
    const started = performance.now()
    try {
      const response = await fetch(`${base}${url}`, init)
      await response.arrayBuffer()
      return { status: response.status, ms: performance.now() - started }
    } catch {
      return { status: 0, ms: performance.now() - started }
    }
  }

  // The other tenant's dashboard: its reports one after another, by cookie.
  const otherReports = [
    `/api/sites/${other.siteId}/stats?${RANGE}`,
    `/api/sites/${other.siteId}/breakdown/pages?${RANGE}`,
    `/api/sites/${other.siteId}/series?bucket=day&${RANGE}`,
    `/api/sites/${other.siteId}/breakdown/referrers?${RANGE}`,
  ]
  // The flood: the dearest reads, over a year, and the report batch of an overview page.
  const overview = {
    reports: [
      { name: 'stats' },
      { name: 'series', params: { bucket: 'day' } },
      { name: 'breakdown', params: { name: 'pages' } },
      { name: 'breakdown', params: { name: 'referrers' } },
      { name: 'breakdown', params: { name: 'countries' } },
      { name: 'breakdown', params: { name: 'browsers' } },
      { name: 'sessions' },
    ].map((part, i) => ({ id: `p${i}`, ...part })),
  }
  // One spec per user and kind of read: the open loop cycles through them.
  const floodRequests = hostileCookies.flatMap((cookie) => {
    const site = hostile.siteId
    return [
      {
        url: `/api/sites/${site}/reports?${YEAR}`,
        method: 'POST',
        headers: { cookie, origin: base, 'content-type': 'application/json' },
        body: JSON.stringify(overview),
      },
      { url: `/api/sites/${site}/stats?${YEAR}`, headers: { cookie } },
      { url: `/api/sites/${site}/breakdown/pages?${YEAR}`, headers: { cookie } },
      { url: `/api/sites/${site}/events?${YEAR}&limit=1000`, headers: { cookie } },
    ]
  })
  const trackRequests = Array.from({ length: 20 }, (_, i) => ({
    url: '/api/track',
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'https://other.example', 'user-agent': CHROME_UA },
    body: JSON.stringify({
      site_id: String(other.siteId),
      pathname: `/landing-${i}`,
      hostname: 'other.example',
    }),
  }))

  const percentile = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b)
    return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0
  }
  const byStatus = (statuses: number[]) => {
    const counts = new Map<number, number>()
    for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1)
    return Object.fromEntries([...counts].sort(([a], [b]) => a - b).map(([s, n]) => [String(s), n]))
  }
  /** Run `open-loop.mjs` in a process of its own; @returns every answer's status and time, in order. */
  const openLoop = (rate: number, timeoutMs: number, requests: unknown[]) =>
    new Promise<{ status: number; ms: number; error?: string }[]>((resolve, reject) => {
      const child = spawn(process.execPath, [fileURLToPath(new URL('./open-loop.mjs', import.meta.url))], {
        env: {
          PATH: process.env.PATH ?? '',
          OPEN_LOOP_SPEC: JSON.stringify({ base, rate, seconds: SECONDS, timeoutMs, requests }),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      let output = ''
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString()
      })
      child.once('exit', (code) => {
        if (code !== 0) return reject(new Error(`open-loop.mjs exited with ${code}`))
        const answers = JSON.parse(output) as [number, number, string?][]
        resolve(answers.map(([status, ms, error]) => ({ status, ms, error })))
      })
    })

  /** How many answers failed with each error (a timeout, a reset connection). */
  const countErrors = (answers: { error?: string }[]) => {
    const counts: Record<string, number> = {}
    for (const { error } of answers) if (error) counts[error] = (counts[error] ?? 0) + 1
    return counts
  }
  const failedSpan = (answers: { status: number }[]) => {
    const failed = answers.flatMap((answer, i) => (answer.status === 200 ? [] : [i / TRACK_RATE]))
    return { from: failed[0] ?? null, to: failed.at(-1) ?? null }
  }
  const phase = async (flood: boolean) => {
    let running = true
    const reportMs: number[] = []
    const reportStatuses: number[] = []
    // A person's pace: at most REPORT_RATE reports a second, one at a time (within the user's budget).
    const dashboard = (async () => {
      for (let i = 0; running; i++) {
        const answer = await timed(otherReports[i % otherReports.length] ?? '', {
          headers: { cookie: other.cookie },
        })
        reportMs.push(answer.ms)
        reportStatuses.push(answer.status)
        const pause = 1000 / REPORT_RATE - answer.ms
        if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause))
      }
    })()
    const tracking = openLoop(TRACK_RATE, 10_000, trackRequests)
    const floodAnswers = flood ? openLoop(FLOOD_RATE, 120_000, floodRequests) : Promise.resolve([])
    // The other tenant's reports are measured while its tracking runs (the flood's whole length).
    const tracked = await tracking
    running = false
    await dashboard
    const flooded = await floodAnswers
    const ok = tracked.filter((answer) => answer.status === 200).length
    return {
      otherReports: reportMs.length,
      otherReportsByStatus: byStatus(reportStatuses),
      otherReportP50Ms: Number(percentile(reportMs, 50).toFixed(1)),
      otherReportP95Ms: Number(percentile(reportMs, 95).toFixed(1)),
      tracked: tracked.length,
      trackingSuccessPercent: Number(((100 * ok) / Math.max(1, tracked.length)).toFixed(2)),
      trackingP95Ms: Number(
        percentile(
          tracked.map((answer) => answer.ms),
          95,
        ).toFixed(1),
      ),
      trackingByStatus: byStatus(tracked.map((answer) => answer.status)),
      trackingErrors: countErrors(tracked),
      // When in the phase tracking stopped answering: the send time (s) of the first and last request
      // without a 200.
      trackingFailedFromS: failedSpan(tracked).from,
      trackingFailedToS: failedSpan(tracked).to,
      hostileByStatus: byStatus(flooded.map((answer) => answer.status)),
      hostileErrors: countErrors(flooded),
      hostileP95Ms: Number(
        percentile(
          flooded.map((answer) => answer.ms),
          95,
        ).toFixed(1),
      ),
    }
  }

  const alone = await phase(false)
  const flooded = await phase(true)
  const health = await timed('/api/health', {})
  const print = (name: string, p: Awaited<ReturnType<typeof phase>>) => {
    console.log(
      `${name}: other tenant's reports p50 ${p.otherReportP50Ms} ms, p95 ${p.otherReportP95Ms} ms (${p.otherReports} reports, by status`,
      p.otherReportsByStatus,
      `); tracking ${p.trackingSuccessPercent} % of ${p.tracked} answered 200, p95 ${p.trackingP95Ms} ms`,
      p.trackingByStatus,
    )
  }
  console.log(
    `cookie flood: ${FLOOD_RATE} requests/s from ${HOSTILE_USERS} users of one organization for ${SECONDS} s; ` +
      `the other tenant tracked at ${TRACK_RATE}/s; ${EVENTS} events per site`,
  )
  print('alone', alone)
  print('flood', flooded)
  console.log(`hostile tenant's answers by status`, flooded.hostileByStatus, `p95 ${flooded.hostileP95Ms} ms`)
  console.log(
    'no answer, by error: tracking',
    flooded.trackingErrors,
    `(sent from ${flooded.trackingFailedFromS} s to ${flooded.trackingFailedToS} s of the phase)`,
    'hostile',
    flooded.hostileErrors,
  )
  if (process.env.BENCH_SERVER_LOG) console.log(server.output().split('\n').slice(-40).join('\n'))
  const met = flooded.trackingSuccessPercent === 100 && flooded.otherReportP95Ms < 2000
  console.log(
    `targets under the flood: tracking 100 % (${flooded.trackingSuccessPercent} %), reports p95 under 2 s ` +
      `(${flooded.otherReportP95Ms} ms; ${(flooded.otherReportP95Ms / Math.max(alone.otherReportP95Ms, 0.001)).toFixed(2)}x alone): ${met ? 'met' : 'NOT met'}`,
  )
  console.log(
    JSON.stringify({
      floodRate: FLOOD_RATE,
      hostileUsers: HOSTILE_USERS,
      seconds: SECONDS,
      alone,
      flooded,
      healthAfter: health.status,
    }),
  )
  if (!met || health.status !== 200) process.exitCode = 1
} finally {
  await server.stop()
}
