/**
 * One tenant's hostile requests against another tenant's normal traffic, on the server as `npm start`
 * runs it (`bin/pathlight.js serve` on the compiled `dist/`, embedded chDB + SQLite, shipped defaults).
 *
 * Tenant A sends `BENCH_HOSTILE` (default 300) requests with regex filters the events store would
 * refuse (the patterns that once broke the next query of another tenant), to the stats, events,
 * breakdown and v1 events routes, from two concurrent loops. Tenant B meanwhile reads its stats,
 * events, v1 stats and events, exports and imports, in a loop, until A is done. Printed: A's answers
 * by status, B's answers by status and the number of B's 5xx (the target is 0), and B's median
 * answer time during the attack against the same requests alone just before it (the ratio).
 *
 *   npm run build -w @pathlight/server && npx tsx bench/hostile/run.ts
 *
 * The last stdout line is the same figures as JSON.
 */
import { seedInstance } from '../../packages/server/src/demo/seed-instance.js'
import { storeRefusedRegexes as PATTERNS } from '../../packages/server/src/testing/hostile-values.js'
import { spawnServer } from '../../packages/server/src/testing/start-server-process.js'
import { positiveInteger } from '../positive-integer.js'

const HOSTILE = positiveInteger('BENCH_HOSTILE', 300)

const RANGE = 'period=custom&start_date=2026-01-01&end_date=2026-01-31'

const server = await spawnServer({ entry: 'build' })
try {
  const attacker = await seedInstance(server.baseUrl, { email: 'attacker@example.com', domain: 'a.example' })
  const victim = await seedInstance(server.baseUrl, { email: 'victim@example.com', domain: 'b.example' })
  const send = async (url: string, init: RequestInit = {}) => {
    const started = performance.now()
    const response = await fetch(`${server.baseUrl}${url}`, init)
    await response.arrayBuffer()
    return { status: response.status, ms: performance.now() - started }
  }
  const importBody = (count: number, day: number) =>
    `${Array.from({ length: count }, (_, i) =>
      JSON.stringify({
        timestamp: `2026-01-${String(day).padStart(2, '0')}T10:${String(i % 60).padStart(2, '0')}:00Z`,
        pathname: `/page-${i % 9}`,
        user_id: `visitor-${i % 50}`,
      }),
    ).join('\n')}\n`
  const importInto = (tenant: typeof victim, count: number, day: number) =>
    send(`/api/sites/${tenant.siteId}/import`, {
      method: 'POST',
      headers: { cookie: tenant.cookie, origin: server.baseUrl, 'content-type': 'application/x-ndjson' },
      body: importBody(count, day),
    })
  const victimImport = (count: number, day: number) => importInto(victim, count, day)
  // Both sites hold events in the range: a regex the store refuses fails only once it meets a row.
  for (const tenant of [attacker, victim]) {
    const seeded = await importInto(tenant, 2_000, 5)
    if (seeded.status !== 200) throw new Error(`seeding import: ${seeded.status}`)
  }

  // The victim's round of normal requests: reports by cookie, v1 by key, an export and an import.
  let day = 6
  const victimRound = () =>
    Promise.all([
      send(`/api/sites/${victim.siteId}/stats?${RANGE}`, { headers: { cookie: victim.cookie } }),
      send(`/api/sites/${victim.siteId}/events?${RANGE}`, { headers: { cookie: victim.cookie } }),
      send(`/api/sites/${victim.siteId}/breakdown/pages?${RANGE}`, { headers: { cookie: victim.cookie } }),
      send(`/api/v1/sites/${victim.siteId}/stats?${RANGE}`, {
        headers: { authorization: `Bearer ${victim.apiKey}` },
      }),
      send(`/api/sites/${victim.siteId}/export`, { headers: { cookie: victim.cookie } }),
      victimImport(20, (day++ % 20) + 6),
    ])

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
  const alone: number[] = []
  for (let i = 0; i < 10; i++) for (const answer of await victimRound()) alone.push(answer.ms)

  const hostileRequests = Array.from({ length: HOSTILE }, (_, i) => {
    const pattern = PATTERNS[i % PATTERNS.length] ?? ''
    const filters = encodeURIComponent(
      JSON.stringify([{ parameter: 'pathname', type: 'regex', value: [pattern] }]),
    )
    const route = ['stats', 'events', 'breakdown/pages'][i % 3]
    return `/api/sites/${attacker.siteId}/${route}?${RANGE}&filters=${filters}`
  })
  const attackerStatuses = new Map<number, number>()
  let next = 0
  let attacking = true
  const attackLoop = async () => {
    while (next < hostileRequests.length) {
      const url = hostileRequests[next++] ?? ''
      const { status } = await send(url, { headers: { cookie: attacker.cookie } })
      attackerStatuses.set(status, (attackerStatuses.get(status) ?? 0) + 1)
    }
  }
  const victimStatuses = new Map<number, number>()
  const during: number[] = []
  const victimLoop = async () => {
    while (attacking) {
      for (const answer of await victimRound()) {
        victimStatuses.set(answer.status, (victimStatuses.get(answer.status) ?? 0) + 1)
        during.push(answer.ms)
      }
    }
  }
  const started = performance.now()
  const victims = victimLoop()
  await Promise.all([attackLoop(), attackLoop()])
  attacking = false
  await victims
  const seconds = (performance.now() - started) / 1000

  const byStatus = (counts: Map<number, number>) =>
    Object.fromEntries([...counts].sort(([a], [b]) => a - b).map(([status, n]) => [String(status), n]))
  const victim5xx = [...victimStatuses].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0)
  const health = await send('/api/health')
  const figures = {
    hostileRequests: HOSTILE,
    seconds: Number(seconds.toFixed(1)),
    attackerByStatus: byStatus(attackerStatuses),
    victimByStatus: byStatus(victimStatuses),
    victim5xx,
    victimMedianMsAlone: Number(median(alone).toFixed(1)),
    victimMedianMsDuring: Number(median(during).toFixed(1)),
    healthAfter: health.status,
  }
  console.log(
    `hostile: ${HOSTILE} requests from tenant A in ${figures.seconds} s, by status`,
    figures.attackerByStatus,
  )
  console.log(`normal: tenant B's answers by status`, figures.victimByStatus)
  console.log(`tenant B 5xx: ${victim5xx} (target 0)`)
  console.log(
    `tenant B median answer: ${figures.victimMedianMsAlone} ms alone, ${figures.victimMedianMsDuring} ms during ` +
      `(ratio ${(figures.victimMedianMsDuring / Math.max(figures.victimMedianMsAlone, 0.001)).toFixed(2)})`,
  )
  console.log(`health afterwards: ${health.status}`)
  console.log(JSON.stringify(figures))
  if (victim5xx > 0 || health.status !== 200) process.exitCode = 1
} finally {
  await server.stop()
}
