/**
 * The events store on a two-shard cluster: its settings checked before anything is made, rows sharded
 * by session (counted on each shard directly), statements reaching every shard, tables of later
 * migrations getting their `Distributed` twins, and every registry report and its v1 twin answering
 * on the cluster exactly what one embedded chDB answers for the same rows. Runs on the cluster pass's
 * cluster, or one of this file's own elsewhere.
 */
import { breakdownNames, reportRegistry } from '@pathlight/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reportRows, TYPE_ERROR } from '../../query/report-data.fixture.js'
import { type ClickHouseCluster, startClickHouseCluster } from '../../testing/clickhouse-server.js'
import { openTestInstance, type TestInstance } from '../../testing/test-instance.js'
import { CLICKHOUSE_CLUSTER_ENV, CLICKHOUSE_SHARDS_ENV } from '../../testing/test-run-env.js'
import { ClusterSettingsError, openClickHouseClusterStore } from './clickhouse-cluster-store.js'
import { eventRow } from './event-row.fixture.js'
import type { EventsStore } from './events-store.js'

let own: ClickHouseCluster | undefined
let cluster: string
let shards: string[]
beforeAll(async () => {
  if (process.env[CLICKHOUSE_SHARDS_ENV]) {
    cluster = process.env[CLICKHOUSE_CLUSTER_ENV] ?? ''
    shards = (process.env[CLICKHOUSE_SHARDS_ENV] ?? '').split(',')
    return
  }
  own = await startClickHouseCluster(2)
  cluster = own.name
  shards = own.servers.map((server) => server.url)
}, 120_000)
afterAll(async () => {
  await own?.stop()
})

/** One SQL statement on one server over HTTP, its answer's text (independent of the store). */
async function onServer(address: string, sql: string): Promise<string> {
  const response = await fetch(address, { method: 'POST', body: sql })
  const text = await response.text()
  if (!response.ok) throw new Error(`${sql}: ${response.status} ${text}`)
  return text.trim()
}

const databaseName = () => `pathlight_cluster_${Math.random().toString(36).slice(2, 10)}`

async function dropEverywhere(database: string): Promise<void> {
  for (const shard of shards) {
    await onServer(shard, `DROP DATABASE IF EXISTS ${database} SYNC`)
    await onServer(shard, `DROP DATABASE IF EXISTS ${database}_shard SYNC`)
  }
}

describe('ClickHouse cluster settings', () => {
  const database = databaseName()
  afterAll(() => dropEverywhere(database))

  const opening = (settings: { cluster: string; shardUrls: string[] }) =>
    openClickHouseClusterStore(`${shards[0]}/${database}`, settings).then(
      async (store) => {
        await store.close()
        throw new Error('opened')
      },
      (error: unknown) => error as Error,
    )

  const nothingMade = async () => {
    for (const shard of shards)
      expect(
        await onServer(shard, `SELECT count() FROM system.databases WHERE startsWith(name, '${database}')`),
      ).toBe('0')
  }

  it('refuses a cluster name the servers do not know, naming CLICKHOUSE_CLUSTER, and makes nothing', async () => {
    const error = await opening({ cluster: 'no_such_cluster', shardUrls: shards })
    expect(error).toBeInstanceOf(ClusterSettingsError)
    expect(error.message).toMatch(/^CLICKHOUSE_CLUSTER: .*knows no cluster "no_such_cluster".*it knows: .*/)
    expect(error.message).toContain(cluster)
    await nothingMade()
  })

  it('refuses a shard that does not answer, naming CLICKHOUSE_SHARD_URLS, and makes nothing', async () => {
    const error = await opening({ cluster, shardUrls: [shards[0] ?? '', 'http://127.0.0.1:1'] })
    expect(error).toBeInstanceOf(ClusterSettingsError)
    expect(error.message).toMatch(
      /^CLICKHOUSE_SHARD_URLS: the ClickHouse server at http:\/\/127\.0\.0\.1:1 does not answer/,
    )
    await nothingMade()
  })

  it('refuses addresses that are not one per shard of the cluster', async () => {
    const fewer = await opening({ cluster, shardUrls: [shards[0] ?? ''] })
    expect(fewer.message).toMatch(
      /^CLICKHOUSE_SHARD_URLS: 1 address\(es\) given, but cluster "\w+" has 2 shard/,
    )
    const twice = await opening({ cluster, shardUrls: [shards[0] ?? '', shards[0] ?? ''] })
    expect(twice.message).toMatch(/^CLICKHOUSE_SHARD_URLS: .*name one shard twice/)
    await nothingMade()
  })
})

describe('ClickHouse cluster store', () => {
  const database = databaseName()
  let store: EventsStore
  const open = () => openClickHouseClusterStore(`${shards[0]}/${database}`, { cluster, shardUrls: shards })
  beforeAll(async () => {
    store = await open()
  })
  afterAll(async () => {
    await store?.close()
    await dropEverywhere(database)
  })

  // 40 sessions of 5 events each, on one site.
  const rows = Array.from({ length: 200 }, (_, i) =>
    eventRow({
      site_id: 41,
      session_id: `session-${i % 40}`,
      user_id: `visitor-${i % 25}`,
      pathname: `/p${i % 5}`,
      timestamp: `2026-03-0${1 + (i % 5)}T10:${String(i % 60).padStart(2, '0')}:00.000Z`,
    }),
  )

  it('spreads the rows over both shards, never splitting a session, and reads them all back', async () => {
    await store.insert(rows)
    const perShard = await Promise.all(
      shards.map(async (shard) =>
        JSON.parse(
          `[${(
            await onServer(
              shard,
              `SELECT session_id, count() AS n FROM ${database}_shard.events GROUP BY session_id FORMAT JSONEachRow`,
            )
          )
            .split('\n')
            .filter(Boolean)
            .join(',')}]`,
        ),
      ),
    )
    const sessionsOn = perShard.map((found: { session_id: string; n: number }[]) =>
      found.map((s) => s.session_id),
    )
    expect(sessionsOn[0]?.length).toBeGreaterThan(0)
    expect(sessionsOn[1]?.length).toBeGreaterThan(0)
    // Each session whole on one shard: its 5 events there, and on no other shard.
    expect(new Set([...(sessionsOn[0] ?? []), ...(sessionsOn[1] ?? [])]).size).toBe(40)
    expect((sessionsOn[0]?.length ?? 0) + (sessionsOn[1]?.length ?? 0)).toBe(40)
    for (const found of perShard) for (const session of found) expect(Number(session.n)).toBe(5)
    const [all] = await store.query<{ n: number; sessions: number; visitors: number }>(
      'SELECT count() AS n, uniqExact(session_id) AS sessions, uniqExact(user_id) AS visitors FROM events WHERE site_id = 41',
    )
    expect(all).toEqual({ n: 200, sessions: 40, visitors: 25 })
    // The rollup views ran on each shard: the session rollup merges both shards' sessions.
    const [rolled] = await store.query<{ sessions: number }>(
      'SELECT uniqExact(session_key) AS sessions FROM session_hours WHERE site_id = 41',
    )
    expect(rolled?.sessions).toBe(40)
  })

  it('runs a statement on every shard', async () => {
    await store.command('DELETE FROM events WHERE site_id = {site:UInt32} AND pathname = {p:String}', {
      site: 41,
      p: '/p1',
    })
    for (const shard of shards)
      expect(
        await onServer(shard, `SELECT count() FROM ${database}_shard.events WHERE pathname = '/p1'`),
      ).toBe('0')
    const [left] = await store.query<{ n: number }>('SELECT count() AS n FROM events WHERE site_id = 41')
    expect(left?.n).toBe(160)
  })

  it("gives a later migration's new and changed tables their Distributed tables on reopening", async () => {
    for (const shard of shards) {
      await onServer(
        shard,
        `CREATE TABLE ${database}_shard.later (site_id UInt32, session_id String) ENGINE = MergeTree ORDER BY site_id`,
      )
      await onServer(shard, `ALTER TABLE ${database}_shard.replay ADD COLUMN later_column UInt8 DEFAULT 1`)
    }
    await store.close()
    store = await open()
    for (const shard of shards) {
      expect(
        await onServer(
          shard,
          `SELECT engine FROM system.tables WHERE database = '${database}' AND name = 'later'`,
        ),
      ).toBe('Distributed')
      expect(
        await onServer(
          shard,
          `SELECT count() FROM system.columns WHERE database = '${database}' AND table = 'replay' AND name = 'later_column'`,
        ),
      ).toBe('1')
    }
    await store.insert(rows.slice(0, 10))
    const [n] = await store.query<{ n: number }>('SELECT count() AS n FROM later')
    expect(n?.n).toBe(0)
  })
})

/** The saved goal of the goal's reports: the fixture's sessions that saw /pricing. */
const GOAL = { name: 'Pricing', goalType: 'path', config: { pathPattern: '/pricing' } }
/** The steps of the funnels' reports, saved and ad hoc: /pricing, then the signup event. */
const FUNNEL_STEPS = [
  { type: 'path', pathPattern: '/pricing' },
  { type: 'event', eventName: 'signup' },
]

describe('every registry report and v1 on the cluster equal one embedded process', () => {
  const database = databaseName()
  let embedded: TestInstance
  let sharded: TestInstance
  const seeds: Awaited<ReturnType<TestInstance['seed']>>[] = []
  const saved: { goalId: number; funnelId: number }[] = []
  beforeAll(async () => {
    const none = { CLICKHOUSE_URL: '', CLICKHOUSE_CLUSTER: '', CLICKHOUSE_SHARD_URLS: '' }
    // One clock for both, a few minutes after the fixture's last session began (the live report).
    const clock = () => Date.parse('2026-03-25T12:02:00.000Z')
    embedded = await openTestInstance({ env: none, clock })
    sharded = await openTestInstance({
      clock,
      env: {
        CLICKHOUSE_URL: `${shards[0]}/${database}`,
        CLICKHOUSE_CLUSTER: cluster,
        CLICKHOUSE_SHARD_URLS: shards.join(','),
      },
    })
    for (const t of [embedded, sharded]) {
      const seed = await t.seed()
      seeds.push(seed)
      await t.services.events.insert(
        reportRows.map((row) => ({
          ...row,
          site_id: row.site_id === 7 ? seed.site.siteId : row.site_id + 1000,
        })),
      )
    }
    expect(seeds[0]?.site.siteId).toBe(seeds[1]?.site.siteId)
    // The saved goal and funnel the goal's and the saved funnel's reports read, alike on both.
    for (const [i, t] of [embedded, sharded].entries()) {
      const base = `/api/sites/${seeds[i]?.site.siteId}`
      const cookie = seeds[i]?.cookie ?? ''
      const created = await Promise.all([
        t.app.inject({ method: 'POST', url: `${base}/goals`, headers: { cookie }, payload: GOAL }),
        t.app.inject({
          method: 'POST',
          url: `${base}/funnels`,
          headers: { cookie },
          payload: { name: 'Pricing to signup', steps: FUNNEL_STEPS },
        }),
      ])
      expect(created.map((response) => response.statusCode)).toEqual([201, 201])
      saved.push({ goalId: created[0].json().goalId, funnelId: created[1].json().data.funnelId })
    }
    expect(saved[0]).toEqual(saved[1])
  }, 120_000)
  afterAll(async () => {
    await embedded?.close()
    await sharded?.close()
    await dropEverywhere(database)
  })

  const range = 'start_date=2026-03-01&end_date=2026-03-31'
  /** Parameters a report requires beyond the range. */
  const required: Record<string, string> = {
    series: '&bucket=day',
    'error-events': `&errorMessage=${encodeURIComponent(TYPE_ERROR)}`,
    'error-bucketed': `&errorMessage=${encodeURIComponent(TYPE_ERROR)}&bucket=day`,
    'property-breakdown': '&property=plan',
    heatmap: '&page=/',
    'saved-funnel-sessions': '&step=2',
    'funnel-sessions': '&step=2',
  }
  /** Each report's request: a GET, or a POST with its funnel's steps (the ad-hoc funnels' reads). */
  const paths = (siteId: number): { name: string; url: string; body?: unknown; v1?: string }[] =>
    Object.entries(reportRegistry).flatMap(([name, registration]) => {
      const path = registration.endpoint.path
        .replace(':siteId', String(siteId))
        .replace(':goalId', String(saved[0]?.goalId))
        .replace(':funnelId', String(saved[0]?.funnelId))
      const v1 = 'v1' in registration ? registration.v1.path.replace(':siteId', String(siteId)) : undefined
      if (path.includes(':name'))
        return breakdownNames.map((dimension) => ({
          name: `${name} ${dimension}`,
          url: `${path.replace(':name', dimension)}?${range}`,
        }))
      if (path.includes(':sessionId'))
        return ['s1', 's3', 's4'].map((session) => ({
          name: `${name} ${session}`,
          url: `${path.replace(':sessionId', session)}?${range}`,
        }))
      const query = `${range}${required[name] ?? ''}`
      const body = registration.endpoint.method === 'POST' ? { steps: FUNNEL_STEPS } : undefined
      return [{ name, url: `${path}?${query}`, body, v1: v1 && `${v1}?${query}` }]
    })

  it('answers every report alike', async () => {
    const siteId = seeds[0]?.site.siteId ?? 0
    const compared: string[] = []
    for (const report of paths(siteId)) {
      const answers = await Promise.all(
        [embedded, sharded].map(async (t, i) => {
          // A report of the v1 API alone (its endpoint's access apiKey) is read with the key.
          const response = await t.app.inject({
            method: report.body === undefined ? 'GET' : 'POST',
            url: report.url,
            headers: report.url.startsWith('/api/v1/')
              ? { authorization: `Bearer ${seeds[i]?.apiKey}` }
              : { cookie: seeds[i]?.cookie ?? '' },
            ...(report.body === undefined ? {} : { payload: report.body as object }),
          })
          return { status: response.statusCode, body: response.json() as unknown }
        }),
      )
      expect(answers[0]?.status, report.name).toBe(200)
      expect(answers[1], report.name).toEqual(answers[0])
      compared.push(report.name)
      if (!report.v1) continue
      const v1 = await Promise.all(
        [embedded, sharded].map(async (t, i) => {
          const response = await t.app.inject({
            method: 'GET',
            url: report.v1 ?? '',
            headers: { authorization: `Bearer ${seeds[i]?.apiKey}` },
          })
          return { status: response.statusCode, body: response.json() as unknown }
        }),
      )
      expect(v1[0]?.status, `v1 ${report.name}`).toBe(200)
      expect(v1[1], `v1 ${report.name}`).toEqual(v1[0])
      compared.push(`v1 ${report.name}`)
    }
    expect(compared.length).toBeGreaterThan(Object.keys(reportRegistry).length)
  })
})
