/**
 * Beyond one machine, end to end: two `pathlight serve` processes on one PostgreSQL database, one Redis
 * and one ClickHouse server (`testing/clickhouse-server.ts`), traffic spread over both, against one
 * embedded process (SQLite and chDB) that gets the same traffic. Every report of the registry and its
 * v1 twin answers on each node exactly what the embedded process answers.
 *
 * The traffic: an export's lines (events with their ids, sessions and timestamps, so every figure is
 * fixed) imported half through each node, the whole export imported again through the second node
 * (nothing added: the stored-id lookup on the server), and live tracking with each visitor's events
 * alternating between the nodes (one session per visitor only if the nodes share sessions in Redis);
 * then a visitor's erasure through one node, gone from the reports of both; the webhooks of
 * tracking through both nodes, each delivered once though both nodes' workers poll the one outbox;
 * and a weekly e-mail report that both nodes' schedules find due (every 300 ms, one at a time through
 * the Redis lock, the period claimed by its row in PostgreSQL): it reaches a real SMTP server once,
 * and its figures are those of the same report sent by the embedded process.
 */
import crypto from 'node:crypto'
import path from 'node:path'
import { breakdownNames, reportRegistry, v1ReportNames } from '@pathlight/protocol'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedInstance } from '../src/demo/seed-instance.js'
import { EMAIL_VERIFICATION_SUBJECT } from '../src/mail/templates/email-verification.js'
import { eventRow } from '../src/storage/events/event-row.fixture.js'
import type { EventRow } from '../src/storage/events/event-row.js'
import { type ClickHouseServer, startClickHouseServer } from '../src/testing/clickhouse-server.js'
import { createTempDatabase } from '../src/testing/postgres.js'
import { type SmtpReceiver, startSmtpReceiver } from '../src/testing/smtp-receiver.js'
import { type SpawnedServer, spawnServer } from '../src/testing/start-server-process.js'
import { startWebhookReceiver, type WebhookReceiver } from '../src/testing/webhook-receiver.js'
import { toExportedEvent } from '../src/transfer/exported-event.js'

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** March 2026: 60 visitors, 1-3 sessions each, 1-6 events per session, of every type the reports read. */
function marchEvents(): EventRow[] {
  const next = random(43)
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T
  const sources = [
    { referrer: '', referrer_domain: '', channel: 'Direct' },
    { referrer: 'https://www.google.com/', referrer_domain: 'www.google.com', channel: 'Organic Search' },
    {
      referrer: 'https://news.ycombinator.com/',
      referrer_domain: 'news.ycombinator.com',
      channel: 'Referral',
    },
  ]
  const clients = [
    { browser: 'Chrome', operating_system: 'Windows', device_type: 'desktop', country: 'US', city: 'Boston' },
    { browser: 'Firefox', operating_system: 'Linux', device_type: 'desktop', country: 'DE', city: 'Berlin' },
    { browser: 'Safari', operating_system: 'iOS', device_type: 'mobile', country: 'FR', city: 'Paris' },
  ]
  const rows: EventRow[] = []
  for (let v = 0; v < 60; v++) {
    const client = pick(clients)
    const sessions = 1 + Math.floor(next() * 3)
    for (let s = 0; s < sessions; s++) {
      const source = pick(sources)
      let at = Date.parse('2026-03-01T00:00:00.000Z') + Math.floor(next() * 30 * 86_400_000)
      const sessionId = crypto.randomUUID()
      const events = 1 + Math.floor(next() * 6)
      for (let e = 0; e < events; e++) {
        const roll = next()
        const pathname = pick(['/', '/pricing', '/blog/a', '/blog/b', '/docs'])
        const common = {
          ...client,
          ...source,
          site_id: 1,
          session_id: sessionId,
          user_id: `visitor-${v}`,
          timestamp: new Date(at).toISOString(),
          pathname,
          utm_source: source.channel === 'Referral' ? 'hn' : '',
          language: 'en-US',
          region: '',
          lat: null,
          lon: null,
        }
        if (roll < 0.7) rows.push(eventRow({ ...common, type: 'pageview' }))
        else if (roll < 0.85)
          rows.push(
            eventRow({
              ...common,
              type: 'custom_event',
              event_name: pick(['signup', 'download']),
              properties: JSON.stringify({ plan: pick(['free', 'pro']) }),
            }),
          )
        else if (roll < 0.93)
          rows.push(
            eventRow({ ...common, type: 'performance', lcp: 1000 + Math.floor(next() * 3000), cls: 0.1 }),
          )
        else
          rows.push(
            eventRow({
              ...common,
              type: 'error',
              event_name: 'TypeError',
              error_message: 'x is undefined',
              error_stack: 'TypeError: x is undefined\n    at f (app.js:1:1)',
              error_file: 'https://example.com/app.js',
              error_line: 1,
              error_column: 1,
            }),
          )
        at += 5_000 + Math.floor(next() * 120_000)
      }
    }
  }
  return rows
}

const DAY = 86_400_000

/** The last full ISO week (Monday to Sunday, UTC) before the day `now` falls on, as 'YYYY-MM-DD'. */
function lastFullWeek(now: number): { startDate: string; endDate: string } {
  const today = Date.parse(new Date(now).toISOString().slice(0, 10))
  const thisMonday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
  return { startDate: day(thisMonday - 7 * DAY), endDate: day(thisMonday - DAY) }
}

/** A week of visits from `startDate` (UTC): 40 visitors, pageviews and sign-ups, three sources and countries. */
function weekEvents(startDate: string): EventRow[] {
  const next = random(7)
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T
  const rows: EventRow[] = []
  for (let v = 0; v < 40; v++) {
    const country = pick(['US', 'DE', 'FR'])
    const sessions = 1 + Math.floor(next() * 2)
    for (let s = 0; s < sessions; s++) {
      const referrerDomain = pick(['', 'www.google.com', 'news.ycombinator.com'])
      let at = Date.parse(`${startDate}T00:00:00.000Z`) + Math.floor(next() * 7) * DAY + 3600_000
      at += Math.floor(next() * 18 * 3600_000)
      const sessionId = crypto.randomUUID()
      const events = 1 + Math.floor(next() * 4)
      for (let e = 0; e < events; e++) {
        const common = {
          site_id: 1,
          session_id: sessionId,
          user_id: `week-${v}`,
          timestamp: new Date(at).toISOString(),
          pathname: pick(['/', '/pricing', '/docs', '/signup']),
          referrer: referrerDomain ? `https://${referrerDomain}/` : '',
          referrer_domain: referrerDomain,
          channel: referrerDomain ? 'Referral' : 'Direct',
          country,
          region: '',
          city: '',
          lat: null,
          lon: null,
        }
        rows.push(
          next() < 0.8
            ? eventRow({ ...common, type: 'pageview' })
            : eventRow({ ...common, type: 'custom_event', event_name: 'signup' }),
        )
        at += 10_000 + Math.floor(next() * 90_000)
      }
    }
  }
  return rows
}

interface Deployment {
  /** The API nodes to spread traffic over (two, or the one embedded process). */
  nodes: SpawnedServer[]
  siteId: number
  apiKey: string
  cookie: string
}

let clickhouse: ClickHouseServer | undefined
let receiver: WebhookReceiver | undefined
/** Where each deployment's mail goes (the sign-ups' address verification is accepted, not kept). */
let clusterMail: SmtpReceiver | undefined
let singleMail: SmtpReceiver | undefined
let postgres: { url: string; drop(): Promise<void> } | undefined
const processes: SpawnedServer[] = []
let cluster: Deployment
let single: Deployment
const rows = marchEvents()
const lines = rows.map((row) => JSON.stringify(toExportedEvent(row)))

beforeAll(async () => {
  clickhouse = await startClickHouseServer()
  postgres = await createTempDatabase()
  receiver = await startWebhookReceiver()
  clusterMail = await startSmtpReceiver({ ignoreSubjects: [EMAIL_VERIFICATION_SUBJECT] })
  singleMail = await startSmtpReceiver({ ignoreSubjects: [EMAIL_VERIFICATION_SUBJECT] })
  const mail = { MAIL_FROM: 'Pathlight <reports@pathlight.example>', MAIL_POLL_MS: '200' }
  const shared = {
    GEOIP: 'off',
    // The receiver is on loopback.
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    DATABASE_URL: postgres.url,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_KEY_PREFIX: `test:two-nodes:${crypto.randomBytes(6).toString('hex')}:`,
    CLICKHOUSE_URL: `${clickhouse.url}/pathlight`,
    ...mail,
    SMTP_URL: clusterMail.url,
    // Both nodes look for due reports all the time: only the lock and the period's row keep it to one mail.
    EMAIL_REPORT_INTERVAL_MS: '300',
  }
  // One after the other, as docs/scaling.md says: the first start migrates the new stores.
  const a = await spawnServer({ env: shared })
  processes.push(a)
  const b = await spawnServer({ env: shared })
  processes.push(b)
  const embedded = await spawnServer({ env: { GEOIP: 'off', ...mail, SMTP_URL: singleMail.url } })
  processes.push(embedded)
  const [seededCluster, seededSingle] = await Promise.all([
    seedInstance(a.baseUrl),
    seedInstance(embedded.baseUrl),
  ])
  cluster = { nodes: [a, b], ...seededCluster }
  single = { nodes: [embedded], ...seededSingle }
}, 180_000)

afterAll(async () => {
  await Promise.all(processes.map((server) => server.stop()))
  await clickhouse?.stop()
  await postgres?.drop()
  await receiver?.close()
  await clusterMail?.close()
  await singleMail?.close()
})

/** Import NDJSON `body` into the deployment's site through `node`. @returns the import's answer */
async function importLines(deployment: Deployment, node: SpawnedServer, body: string[]) {
  const response = await fetch(`${node.baseUrl}/api/sites/${deployment.siteId}/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${deployment.apiKey}` },
    body: `${body.join('\n')}\n`,
  })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`import: ${response.status} ${text}`)
  return JSON.parse(text) as { imported: number; dropped: Record<string, number> }
}

async function eventCount(deployment: Deployment, node: SpawnedServer): Promise<number> {
  const response = await fetch(`${node.baseUrl}/api/admin/events-count?site_id=${deployment.siteId}`, {
    headers: { authorization: `Bearer ${deployment.apiKey}` },
  })
  if (!response.ok) throw new Error(`events-count: ${response.status} ${await response.text()}`)
  return Number(((await response.json()) as { count: number }).count)
}

/**
 * GET `path` on `node` as the deployment's owner (its cookie; v1 with its key), or POST `body` there
 * (the ad-hoc funnels' reads). @returns status and JSON
 */
async function read(deployment: Deployment, node: SpawnedServer, path: string, body?: unknown) {
  const v1 = path.startsWith('/api/v1/')
  const response = await fetch(`${node.baseUrl}${path}`, {
    ...(body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }),
    headers: v1
      ? { authorization: `Bearer ${deployment.apiKey}` }
      : {
          cookie: deployment.cookie,
          ...(body === undefined ? {} : { 'content-type': 'application/json', origin: node.baseUrl }),
        },
  })
  const text = await response.text()
  return {
    status: response.status,
    body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
  }
}

/** The saved goal of the goal's reports. */
const GOAL = { name: 'Pricing', goalType: 'path', config: { pathPattern: '/pricing' } }
/** The steps of the funnels' reports, saved and ad hoc: /pricing, then the signup event. */
const FUNNEL_STEPS = [
  { type: 'path', pathPattern: '/pricing' },
  { type: 'event', eventName: 'signup' },
]

/** Save the goal and the funnel of the reports on `deployment` through `node`. @returns their ids */
async function saveDefinitions(deployment: Deployment, node: SpawnedServer) {
  const save = async (what: string, body: unknown) => {
    const response = await fetch(`${node.baseUrl}/api/sites/${deployment.siteId}/${what}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: deployment.cookie, origin: node.baseUrl },
      body: JSON.stringify(body),
    })
    const text = await response.text()
    if (response.status !== 201) throw new Error(`${what}: ${response.status} ${text}`)
    return JSON.parse(text)
  }
  const goal = (await save('goals', GOAL)) as { goalId: number }
  const funnel = (await save('funnels', { name: 'Pricing to signup', steps: FUNNEL_STEPS })) as {
    data: { funnelId: number }
  }
  return { goalId: goal.goalId, funnelId: funnel.data.funnelId }
}

/** Parameters a report requires beyond the range, by its name in the registry. */
const required: Record<string, string> = {
  series: '&bucket=day',
  'property-breakdown': '&property=plan',
  heatmap: '&page=/',
  'error-events': `&errorMessage=${encodeURIComponent('x is undefined')}`,
  'error-bucketed': `&errorMessage=${encodeURIComponent('x is undefined')}`,
}

/** A report's request: its address and, for a POST, its body. */
interface ReportRequest {
  path: string
  body?: unknown
}

/**
 * Every registered report's request (each breakdown dimension, a session's events, the saved goal's
 * and funnel's reports, the ad-hoc funnels' POSTs) and its v1 twin's.
 */
function reportRequests(
  siteId: number,
  sessionId: string,
  saved: { goalId: number; funnelId: number },
  query: string,
): ReportRequest[] {
  const requests: ReportRequest[] = []
  const fill = (path: string) =>
    path
      .replace(':siteId', String(siteId))
      .replace(':sessionId', sessionId)
      .replace(':goalId', String(saved.goalId))
      .replace(':funnelId', String(saved.funnelId))
  for (const [name, registration] of Object.entries(reportRegistry)) {
    const path = fill(registration.endpoint.path)
    const body = registration.endpoint.method === 'POST' ? { steps: FUNNEL_STEPS } : undefined
    if (name === 'breakdown')
      for (const dimension of breakdownNames)
        requests.push({ path: `${path.replace(':name', dimension)}?${query}` })
    // The journeys' own `limit` (at most 200) counts journeys, not a page: their default instead.
    else if (name === 'journeys') requests.push({ path: `${path}?${query.replace(/&limit=\d+/, '')}` })
    else if (name.endsWith('funnel-sessions')) requests.push({ path: `${path}?${query}&step=2`, body })
    else requests.push({ path: `${path}?${query}${required[name] ?? ''}`, body })
  }
  for (const name of v1ReportNames)
    requests.push({ path: `${fill(reportRegistry[name].v1.path)}?${query}${required[name] ?? ''}` })
  return requests
}

/**
 * The live report's window is the last minutes before each request: its bounds differ, its count not.
 * A saved goal's or funnel's `createdAt` and `updatedAt` are when each deployment saved it.
 */
function withoutClock(
  path: string,
  answer: { status: number; body: { data?: { from?: string; to?: string } } },
) {
  if (!answer.body.data) return answer
  if (/\/(goals|funnels)\b/.test(path)) return { ...answer, body: withoutSavedTimes(answer.body) }
  if (!path.includes('/live?')) return answer
  const { from: _from, to: _to, ...data } = answer.body.data
  return { ...answer, body: { ...answer.body, data } }
}

/** `value` without the `createdAt` and `updatedAt` fields of its objects, at any depth. */
function withoutSavedTimes<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutSavedTimes) as T
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'createdAt' && key !== 'updatedAt')
      .map(([key, field]) => [key, withoutSavedTimes(field)]),
  ) as T
}

describe('two API nodes on PostgreSQL, Redis and a ClickHouse server', () => {
  // About 100 report paths read on three processes: past the default 60 s beside other busy files
  // (it ran out at a load average of 25, before the e-mail report was added as after).
  it('import through both nodes: every registry report and v1 equal one embedded process', async () => {
    const half = Math.floor(lines.length / 2)
    const [a, b] = cluster.nodes as [SpawnedServer, SpawnedServer]
    const [embedded] = single.nodes as [SpawnedServer]
    expect((await importLines(cluster, a, lines.slice(0, half))).imported).toBe(half)
    expect((await importLines(cluster, b, lines.slice(half))).imported).toBe(lines.length - half)
    // Again, whole, through the other node: every id is found stored, nothing is added.
    const again = await importLines(cluster, b, lines)
    expect(again.imported).toBe(0)
    expect(again.dropped).toEqual({ duplicate: lines.length })
    expect((await importLines(single, embedded, lines.slice(0, half))).imported).toBe(half)
    expect((await importLines(single, embedded, lines.slice(half))).imported).toBe(lines.length - half)
    await expect.poll(() => eventCount(cluster, b), { timeout: 30_000 }).toBe(rows.length)
    await expect.poll(() => eventCount(single, embedded), { timeout: 30_000 }).toBe(rows.length)

    // An independent count over the generated rows, for the headline figures.
    const pageviews = rows.filter((row) => row.type === 'pageview')
    const stats = await read(
      cluster,
      a,
      `/api/v1/sites/${cluster.siteId}/stats?start_date=2026-03-01&end_date=2026-03-31`,
    )
    expect(stats.status).toBe(200)
    expect(stats.body.data.current).toMatchObject({
      pageviews: pageviews.length,
      visitors: new Set(rows.map((row) => row.user_id)).size,
      sessions: new Set(rows.map((row) => row.session_id)).size,
    })

    const sessionId = rows[0]?.session_id ?? ''
    const query = 'start_date=2026-03-01&end_date=2026-03-31&limit=1000'
    expect(single.siteId).toBe(cluster.siteId)
    const saved = await saveDefinitions(cluster, a)
    expect(await saveDefinitions(single, embedded)).toEqual(saved)
    const requests = reportRequests(cluster.siteId, sessionId, saved, query)
    const differing: string[] = []
    for (const { path, body } of requests) {
      const expected = withoutClock(path, await read(single, embedded, path, body))
      expect(expected.status, path).toBe(200)
      for (const node of [a, b]) {
        const answer = withoutClock(path, await read(cluster, node, path, body))
        if (JSON.stringify(answer) !== JSON.stringify(expected))
          differing.push(
            `${path} on ${node.baseUrl}: ${JSON.stringify(answer).slice(0, 300)}\n  embedded: ${JSON.stringify(expected).slice(0, 300)}`,
          )
      }
    }
    expect(differing).toEqual([])
  }, 180_000)

  it('live tracking alternating between the nodes: sessions shared in Redis, the same figures', async () => {
    const today = new Date().toISOString().slice(0, 10)
    const track = async (deployment: Deployment, node: SpawnedServer, visitor: number, pathname: string) => {
      const response = await fetch(`${node.baseUrl}/api/track`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${deployment.apiKey}` },
        body: JSON.stringify({
          site_id: String(deployment.siteId),
          hostname: 'example.com',
          pathname,
          user_id: `live-${visitor}`,
          user_agent: CHROME,
          ip_address: `203.0.113.${visitor + 1}`,
        }),
      })
      expect(response.status).toBe(200)
    }
    const visitors = 12
    const perVisitor = 4
    for (let i = 0; i < perVisitor; i++) {
      await Promise.all(
        Array.from({ length: visitors }, (_, v) => [
          track(cluster, cluster.nodes[(v + i) % 2] as SpawnedServer, v, `/live/${i}`),
          track(single, single.nodes[0] as SpawnedServer, v, `/live/${i}`),
        ]).flat(),
      )
    }
    const total = rows.length + visitors * perVisitor
    await expect
      .poll(() => eventCount(cluster, cluster.nodes[0] as SpawnedServer), { timeout: 30_000 })
      .toBe(total)
    await expect
      .poll(() => eventCount(single, single.nodes[0] as SpawnedServer), { timeout: 30_000 })
      .toBe(total)
    const path = `/api/v1/sites/${cluster.siteId}/stats?start_date=${today}&end_date=${today}`
    const headline = async (deployment: Deployment, node: SpawnedServer) => {
      const { visitors, sessions, pageviews } = (await read(deployment, node, path)).body.data.current
      return { visitors, sessions, pageviews }
    }
    const expected = { visitors, sessions: visitors, pageviews: visitors * perVisitor }
    // Polled, as reads after tracking are elsewhere: a headline read right after the raw count was
    // complete has been seen short of it on the embedded process. Every answer must settle on it.
    for (const node of [...single.nodes, ...cluster.nodes]) {
      const deployment = single.nodes.includes(node) ? single : cluster
      await expect.poll(() => headline(deployment, node), { timeout: 10_000 }).toEqual(expected)
      const live = await read(deployment, node, `/api/sites/${deployment.siteId}/live`)
      expect(live.body.data.visitors).toBe(visitors)
    }
  })

  it('erasure through one node: gone from both, as on the embedded process', async () => {
    const [a, b] = cluster.nodes as [SpawnedServer, SpawnedServer]
    const [embedded] = single.nodes as [SpawnedServer]
    const erase = async (deployment: Deployment, node: SpawnedServer) => {
      const response = await fetch(`${node.baseUrl}/api/sites/${deployment.siteId}/users/visitor-7`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${deployment.apiKey}` },
      })
      expect(response.status).toBe(200)
      return (await response.json()) as { deleted: number; sessions: number }
    }
    const visitorRows = rows.filter((row) => row.user_id === 'visitor-7')
    const expected = {
      deleted: visitorRows.length,
      sessions: new Set(visitorRows.map((row) => row.session_id)).size,
    }
    expect(await erase(cluster, b)).toMatchObject(expected)
    expect(await erase(single, embedded)).toMatchObject(expected)
    const query = 'start_date=2026-03-01&end_date=2026-03-31&limit=1000'
    for (const path of [
      `/api/v1/sites/${cluster.siteId}/stats?${query}`,
      `/api/v1/sites/${cluster.siteId}/sessions?${query}`,
      `/api/sites/${cluster.siteId}/breakdown/pages?${query}`,
    ]) {
      const want = await read(single, embedded, path)
      expect(JSON.stringify(want)).not.toContain('visitor-7')
      for (const node of [a, b])
        expect(await read(cluster, node, path), `${path} on ${node.baseUrl}`).toEqual(want)
    }
  })

  it('webhooks of tracking through both nodes: each delivered once, by whichever node', async () => {
    const [a] = cluster.nodes as [SpawnedServer, SpawnedServer]
    const created = await fetch(`${a.baseUrl}/api/sites/${cluster.siteId}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: cluster.cookie, origin: a.baseUrl },
      body: JSON.stringify({ url: `${receiver?.url}/hook`, events: ['session.created', 'event.tracked'] }),
    })
    expect(created.status).toBe(201)
    const visitors = 6
    for (const [i, body] of [
      { pathname: '/hooked' },
      { type: 'custom_event', event_name: 'hooked' },
    ].entries()) {
      await Promise.all(
        Array.from({ length: visitors }, async (_, v) => {
          const node = cluster.nodes[(v + i) % 2] as SpawnedServer
          const response = await fetch(`${node.baseUrl}/api/track`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${cluster.apiKey}` },
            body: JSON.stringify({
              site_id: String(cluster.siteId),
              hostname: 'example.com',
              user_id: `hooked-${v}`,
              user_agent: CHROME,
              ...body,
            }),
          })
          expect(response.status).toBe(200)
        }),
      )
    }
    const kinds = () =>
      (receiver?.received ?? []).map((request) => String(request.headers['x-pathlight-event']))
    await expect
      .poll(() => kinds().sort(), { timeout: 30_000 })
      .toEqual([...Array(visitors).fill('event.tracked'), ...Array(visitors).fill('session.created')])
    // Both nodes' workers poll the one outbox: still one delivery each, none twice.
    await new Promise((resolve) => setTimeout(resolve, 3000))
    const deliveries = (receiver?.received ?? []).map((request) => request.headers['x-pathlight-delivery'])
    expect(deliveries).toHaveLength(visitors * 2)
    expect(new Set(deliveries).size).toBe(visitors * 2)
    const users = (receiver?.received ?? []).map((request) => JSON.parse(request.body).data.userId as string)
    expect(new Set(users)).toEqual(new Set(Array.from({ length: visitors }, (_, v) => `hooked-${v}`)))
  })
  it('a weekly e-mail report due on both nodes: sent once, with the figures the embedded process sends', async () => {
    const [a, b] = cluster.nodes as [SpawnedServer, SpawnedServer]
    const [embedded] = single.nodes as [SpawnedServer]
    const week = lastFullWeek(Date.now())
    const weekRows = weekEvents(week.startDate)
    const weekLines = weekRows.map((row) => JSON.stringify(toExportedEvent(row)))
    const half = Math.floor(weekLines.length / 2)
    expect((await importLines(cluster, a, weekLines.slice(0, half))).imported).toBe(half)
    expect((await importLines(cluster, b, weekLines.slice(half))).imported).toBe(weekLines.length - half)
    expect((await importLines(single, embedded, weekLines)).imported).toBe(weekLines.length)
    // An independent count over the generated rows: the mail's headline figures.
    const pageviews = weekRows.filter((row) => row.type === 'pageview').length
    const visitors = new Set(weekRows.map((row) => row.user_id)).size
    const stats = `/api/v1/sites/${cluster.siteId}/stats?start_date=${week.startDate}&end_date=${week.endDate}`
    for (const [deployment, node] of [
      [cluster, b],
      [single, embedded],
    ] as const)
      await expect
        .poll(async () => (await read(deployment, node, stats)).body.data.current.pageviews, {
          timeout: 30_000,
        })
        .toBe(pageviews)

    // The owner's address is verified, so as a member it is an active recipient at once.
    const { default: pg } = await import('pg')
    const metadata = new pg.Client({ connectionString: postgres?.url })
    await metadata.connect()
    const sqlite = new Database(path.join(embedded.dataDir, 'pathlight.db'))
    try {
      await metadata.query(`UPDATE "user" SET "emailVerified" = true WHERE email = 'owner@example.com'`)
      sqlite.prepare(`UPDATE user SET emailVerified = 1 WHERE email = 'owner@example.com'`).run()
      const schedule = async (deployment: Deployment, node: SpawnedServer) => {
        const response = await fetch(`${node.baseUrl}/api/sites/${deployment.siteId}/email-reports`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: deployment.cookie, origin: node.baseUrl },
          body: JSON.stringify({ recipients: ['owner@example.com'], frequency: 'weekly' }),
        })
        const text = await response.text()
        expect(response.status, text).toBe(201)
        const report = JSON.parse(text).data as {
          id: string
          recipients: { email: string; status: string }[]
        }
        expect(report.recipients).toEqual([{ email: 'owner@example.com', status: 'active' }])
        return report.id
      }
      const clusterReport = await schedule(cluster, a)
      // Created before the week began: that week is due, and both nodes' schedules find it so.
      await metadata.query('UPDATE email_report SET created_at = $1 WHERE id = $2', [
        new Date(Date.parse(`${week.startDate}T00:00:00.000Z`) - 7 * DAY).toISOString(),
        clusterReport,
      ])
      await expect.poll(() => clusterMail?.received.length, { timeout: 30_000 }).toBe(1)
      // Ten more passes of each node's schedule and mail worker: still the one mail.
      await new Promise((resolve) => setTimeout(resolve, 3000))
      expect(clusterMail?.received).toHaveLength(1)
      const sends = await metadata.query(
        'SELECT start_date, end_date, recipients FROM email_report_send WHERE report_id = $1',
        [clusterReport],
      )
      expect(sends.rows.map((row) => ({ ...row, recipients: Number(row.recipients) }))).toEqual([
        { start_date: week.startDate, end_date: week.endDate, recipients: 1 },
      ])

      // The embedded process sends the same report of the same week at once.
      const singleReport = await schedule(single, embedded)
      const sent = await fetch(
        `${embedded.baseUrl}/api/sites/${single.siteId}/email-reports/${singleReport}/send`,
        { method: 'POST', headers: { cookie: single.cookie, origin: embedded.baseUrl } },
      )
      const sentText = await sent.text()
      expect(sent.status, sentText).toBe(200)
      expect(JSON.parse(sentText)).toMatchObject({ period: week, sent: ['owner@example.com'] })
      const [expected] = await (singleMail as SmtpReceiver).waitFor(1)
      const [mail] = clusterMail?.received ?? []
      // The links differ (each instance's address, each recipient's token); nothing else may.
      const withoutLinks = (text: string) => text.replace(/https?:\/\/[^\s"<>]+/g, '<link>')
      expect(mail?.to).toEqual(['owner@example.com'])
      expect(mail?.subject).toBe(expected?.subject)
      expect(withoutLinks(mail?.text ?? '')).toBe(withoutLinks(expected?.text ?? ''))
      expect(withoutLinks(mail?.html ?? '')).toBe(withoutLinks(expected?.html ?? ''))
      const headline = (name: string) => mail?.text.match(new RegExp(`^${name}\\s+(\\d+)`, 'm'))?.[1]
      expect(headline('Visitors')).toBe(String(visitors))
      expect(headline('Pageviews')).toBe(String(pageviews))
    } finally {
      await metadata.end()
      sqlite.close()
    }
  })
})
