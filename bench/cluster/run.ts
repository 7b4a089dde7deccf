/**
 * Cluster benchmark, in one run so that a shared machine's noise falls on every side alike:
 *
 *   ingest   tracking through two `pathlight serve` nodes (PostgreSQL metadata) into a two-shard
 *            ClickHouse cluster, against one embedded process (SQLite, chDB): `BENCH_SECONDS` of
 *            `BENCH_CONNECTIONS` concurrent senders spread over the nodes, events acknowledged per
 *            second, then the ratio cluster / embedded (above 1: the cluster ingests more).
 *   reports  `BENCH_EVENTS` generated events over 365 days (`bench/query/generate-events.ts`) in
 *            chDB in this process, on one ClickHouse server and on two shards; every report of
 *            `bench/query/reports.ts` over the 365 days for site 1: one unmeasured run, then
 *            `BENCH_ITERATIONS` runs per store, in turn; median ms per store and the ratio to chDB.
 *
 * The servers are the test fixture's (`packages/server/src/testing/clickhouse-server.ts`: the engine
 * of the installed libchdb as a server), all on this machine: the figures say what sharding costs in
 * round trips on one machine, not what more machines give.
 *
 *   npx tsx bench/cluster/run.ts
 *   BENCH_EVENTS=2000000 npx tsx bench/cluster/run.ts
 *   BENCH_EVENTS=10000000 BENCH_SKIP_INGEST=1 npx tsx bench/cluster/run.ts
 *
 * Environment (defaults): BENCH_EVENTS (200,000), BENCH_ITERATIONS (3), BENCH_SECONDS (10),
 * BENCH_CONNECTIONS (8), BENCH_BATCH (100,000 rows per insert), BENCH_LOAD_SECONDS (unset: no limit),
 * BENCH_SKIP_INGEST (unset). Progress on stderr; tables, then the figures as one JSON line (the last
 * stdout line).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { seedInstance } from '../../packages/server/src/demo/seed-instance.js'
import { parseQueryParams } from '../../packages/server/src/query/params.js'
import type { ReportScope } from '../../packages/server/src/query/report-scope.js'
import { openChdbStore } from '../../packages/server/src/storage/events/chdb-store.js'
import { openClickHouseClusterStore } from '../../packages/server/src/storage/events/clickhouse-cluster-store.js'
import { openClickHouseStore } from '../../packages/server/src/storage/events/clickhouse-store.js'
import type { EventsStore } from '../../packages/server/src/storage/events/events-store.js'
import {
  startClickHouseCluster,
  startClickHouseServer,
} from '../../packages/server/src/testing/clickhouse-server.js'
import { createTempDatabase } from '../../packages/server/src/testing/postgres.js'
import { type SpawnedServer, spawnServer } from '../../packages/server/src/testing/start-server-process.js'
import { positiveInteger } from '../positive-integer.js'
import { generateEvents, loadVocabulary } from '../query/generate-events.js'
import { benchReports } from '../query/reports.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const demoLog = path.resolve(here, '../../packages/server/demo-data/elastic-examples-apache_logs.txt')
const events = positiveInteger('BENCH_EVENTS', 200_000)
const iterations = positiveInteger('BENCH_ITERATIONS', 3)
const seconds = positiveInteger('BENCH_SECONDS', 10)
const connections = positiveInteger('BENCH_CONNECTIONS', 8)
// Rows per insert: large blocks keep 10 M events within minutes (each insert is one part per store).
const batchSize = positiveInteger('BENCH_BATCH', 100_000)
const END = new Date('2026-04-01T00:00:00.000Z')
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'

const log = (line: string) => process.stderr.write(`${line}\n`)
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/** Acknowledged tracking events per second over `nodes`, `connections` senders spread over them. */
async function ingestRate(nodes: SpawnedServer[]): Promise<number> {
  const site = await seedInstance(nodes[0]?.baseUrl ?? '')
  let acknowledged = 0
  let n = 0
  const until = Date.now() + seconds * 1000
  const sender = async (node: SpawnedServer) => {
    while (Date.now() < until) {
      const i = n++
      const response = await fetch(`${node.baseUrl}/api/track`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${site.apiKey}` },
        body: JSON.stringify({
          site_id: String(site.siteId),
          hostname: 'example.com',
          pathname: `/page-${i % 50}`,
          user_id: `visitor-${i % 5000}`,
          user_agent: CHROME,
        }),
      })
      await response.arrayBuffer()
      if (response.status === 200) acknowledged++
    }
  }
  const started = Date.now()
  await Promise.all(
    Array.from({ length: connections }, (_, i) => sender(nodes[i % nodes.length] as SpawnedServer)),
  )
  return acknowledged / ((Date.now() - started) / 1000)
}

const figures: Record<string, number> = {}

if (!process.env.BENCH_SKIP_INGEST) {
  log('ingest: one embedded process')
  const embedded = await spawnServer({ env: { GEOIP: 'off' } })
  const single = await ingestRate([embedded]).finally(() => embedded.stop())
  log('ingest: two nodes, two shards')
  const cluster = await startClickHouseCluster(2)
  const postgres = await createTempDatabase()
  const env = {
    GEOIP: 'off',
    DATABASE_URL: postgres.url,
    CLICKHOUSE_URL: `${cluster.servers[0]?.url}/pathlight`,
    CLICKHOUSE_CLUSTER: cluster.name,
    CLICKHOUSE_SHARD_URLS: cluster.servers.map((server) => server.url).join(','),
  }
  const nodes: SpawnedServer[] = []
  try {
    nodes.push(await spawnServer({ env }))
    nodes.push(await spawnServer({ env }))
    const sharded = await ingestRate(nodes)
    figures.ingest_embedded_per_s = Math.round(single)
    figures.ingest_cluster_per_s = Math.round(sharded)
    figures.ingest_ratio = Number((sharded / single).toFixed(2))
    console.log(`ingest, ${connections} senders for ${seconds} s: acknowledged events per second`)
    console.log(`  one embedded process   ${Math.round(single)}`)
    console.log(`  two nodes, two shards  ${Math.round(sharded)}   ratio ${(sharded / single).toFixed(2)}`)
  } finally {
    await Promise.all(nodes.map((node) => node.stop()))
    await cluster.stop()
    await postgres.drop()
  }
}

log(`reports: ${events} events over 365 days into three stores`)
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-bench-cluster-'))
const server = await startClickHouseServer()
const cluster = await startClickHouseCluster(2)
const stores: Record<string, EventsStore> = {}
try {
  stores.chdb = await openChdbStore(path.join(dir, 'events'))
  stores.server = await openClickHouseStore(`${server.url}/pathlight`)
  stores.shards = await openClickHouseClusterStore(`${cluster.servers[0]?.url}/pathlight`, {
    cluster: cluster.name,
    shardUrls: cluster.servers.map((s) => s.url),
  })
  const vocabulary = loadVocabulary(demoLog)
  const loadStarted = performance.now()
  let inserted = 0
  // BENCH_LOAD_SECONDS: a load that runs past it stops at the next batch (the generator goes in day
  // order, so the reports then cover the days loaded); the figures say how many events were loaded.
  const loadLimitMs = positiveInteger('BENCH_LOAD_SECONDS', Number.POSITIVE_INFINITY) * 1000
  const stopped = new Error('load time limit')
  await generateEvents({
    totalEvents: events,
    days: 365,
    end: END,
    batchSize,
    vocabulary,
    sink: async (rows) => {
      if (performance.now() - loadStarted > loadLimitMs) throw stopped
      await Promise.all(Object.values(stores).map((store) => store.insert(rows)))
      inserted += rows.length
      if (inserted % 1_000_000 < rows.length)
        log(`  ${inserted} rows into each, ${((performance.now() - loadStarted) / 1000).toFixed(0)} s`)
    },
  }).catch((error) => {
    if (error !== stopped) throw error
    log(`  stopped loading after BENCH_LOAD_SECONDS: ${inserted} of ${events} events`)
  })
  const generated = inserted
  const loadSeconds = (performance.now() - loadStarted) / 1000
  log(`inserted ${generated} rows into each in ${loadSeconds.toFixed(0)} s`)
  figures.load_seconds = Number(loadSeconds.toFixed(0))
  const query = { start_date: '2025-04-01', end_date: '2026-03-31' }
  const scope: ReportScope = { siteId: 1, params: parseQueryParams(query, END.getTime()) }
  console.log(`\nreports over 365 days, ${generated} events, median of ${iterations} (ms), ratio to chDB`)
  console.log(
    `  ${'report'.padEnd(28)} ${'chdb'.padStart(8)} ${'server'.padStart(8)} ${'shards'.padStart(8)}  server/chdb shards/chdb`,
  )
  const ratios: Record<string, number[]> = { server: [], shards: [] }
  for (const report of benchReports) {
    const times: Record<string, number[]> = { chdb: [], server: [], shards: [] }
    for (const name of Object.keys(times)) await report.run(stores[name] as EventsStore, scope)
    for (let i = 0; i < iterations; i++) {
      for (const name of Object.keys(times)) {
        const started = performance.now()
        await report.run(stores[name] as EventsStore, scope)
        times[name]?.push(performance.now() - started)
      }
    }
    const [c, s, d] = ['chdb', 'server', 'shards'].map((name) => median(times[name] ?? []))
    ratios.server?.push((s as number) / (c as number))
    ratios.shards?.push((d as number) / (c as number))
    console.log(
      `  ${report.name.padEnd(28)} ${(c as number).toFixed(0).padStart(8)} ${(s as number).toFixed(0).padStart(8)} ${(d as number).toFixed(0).padStart(8)}  ${((s as number) / (c as number)).toFixed(2).padStart(11)} ${((d as number) / (c as number)).toFixed(2).padStart(11)}`,
    )
  }
  const geomean = (values: number[]) =>
    Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length)
  figures.events = generated
  figures.reports_server_over_chdb = Number(geomean(ratios.server ?? []).toFixed(2))
  figures.reports_shards_over_chdb = Number(geomean(ratios.shards ?? []).toFixed(2))
  console.log(
    `  geometric mean of the ratios: server/chdb ${figures.reports_server_over_chdb}, shards/chdb ${figures.reports_shards_over_chdb}`,
  )
} finally {
  await Promise.all(Object.values(stores).map((store) => store.close()))
  await server.stop()
  await cluster.stop()
  fs.rmSync(dir, { recursive: true, force: true })
}
console.log(JSON.stringify(figures))
