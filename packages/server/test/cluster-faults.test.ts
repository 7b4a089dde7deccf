/**
 * Faults of a deployment on a two-shard ClickHouse cluster (`testing/clickhouse-server.ts`), two
 * `pathlight serve` processes on one PostgreSQL database:
 *
 * - one shard stopped: tracking still acknowledges (the journal holds the events), reads answer 503
 *   naming the reason instead of half the figures, and once the shard is back every acknowledged event
 *   is stored exactly once (counted on each shard directly, not through the service);
 * - an API node killed with SIGKILL under load: the other node keeps acknowledging, and once the killed
 *   node restarts on its data directory (journal recovery) every acknowledged event is stored once.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { seedInstance } from '../src/demo/seed-instance.js'
import {
  type ClickHouseCluster,
  type ClickHouseServer,
  startClickHouseCluster,
  startClickHouseServer,
} from '../src/testing/clickhouse-server.js'
import { createTempDatabase } from '../src/testing/postgres.js'
import { type SpawnedServer, spawnServer } from '../src/testing/start-server-process.js'

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const DATABASE = 'pathlight_faults'

let cluster: ClickHouseCluster | undefined
let restarted: ClickHouseServer | undefined
let postgres: { url: string; drop(): Promise<void> } | undefined
const processes: SpawnedServer[] = []
let env: Record<string, string>
let nodes: [SpawnedServer, SpawnedServer]
let site: { siteId: number; apiKey: string; cookie: string }

beforeAll(async () => {
  cluster = await startClickHouseCluster(2)
  postgres = await createTempDatabase()
  env = {
    GEOIP: 'off',
    DATABASE_URL: postgres.url,
    CLICKHOUSE_URL: `${cluster.servers[0]?.url}/${DATABASE}`,
    CLICKHOUSE_CLUSTER: cluster.name,
    CLICKHOUSE_SHARD_URLS: cluster.servers.map((server) => server.url).join(','),
  }
  const a = await spawnServer({ env })
  processes.push(a)
  const b = await spawnServer({ env })
  processes.push(b)
  nodes = [a, b]
  site = await seedInstance(a.baseUrl)
}, 180_000)

afterAll(async () => {
  await Promise.all(processes.map((server) => server.stop()))
  await restarted?.stop()
  await cluster?.stop()
  await postgres?.drop()
})

/** POST one event whose pathname names it. @returns whether it was acknowledged (200) */
async function track(node: SpawnedServer, name: string): Promise<boolean> {
  try {
    const response = await fetch(`${node.baseUrl}/api/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${site.apiKey}` },
      body: JSON.stringify({
        site_id: String(site.siteId),
        hostname: 'example.com',
        pathname: `/${name}`,
        user_id: `visitor-${name}`,
        user_agent: CHROME,
      }),
    })
    await response.arrayBuffer()
    return response.status === 200
  } catch {
    return false
  }
}

/** The site's stored pathnames and how often each is stored, read on every shard's own table. */
async function storedOnShards(shards: readonly string[]): Promise<Map<string, number>> {
  const stored = new Map<string, number>()
  for (const shard of shards) {
    const response = await fetch(shard, {
      method: 'POST',
      body: `SELECT pathname FROM ${DATABASE}_shard.events WHERE site_id = ${site.siteId} FORMAT TSV`,
    })
    if (!response.ok) throw new Error(`${shard}: ${response.status} ${await response.text()}`)
    for (const line of (await response.text()).split('\n').filter(Boolean))
      stored.set(line.slice(1), (stored.get(line.slice(1)) ?? 0) + 1)
  }
  return stored
}

/** Every acknowledged name stored exactly once. */
async function expectStoredOnce(acknowledged: readonly string[], shards: readonly string[]): Promise<void> {
  await expect
    .poll(
      async () => [...(await storedOnShards(shards)).keys()].filter((n) => acknowledged.includes(n)).length,
      {
        timeout: 90_000,
        interval: 500,
      },
    )
    .toBe(acknowledged.length)
  const stored = await storedOnShards(shards)
  for (const name of acknowledged) expect(stored.get(name), name).toBe(1)
}

it('with a shard stopped: acknowledges what the journal keeps, reads answer 503, and nothing is lost', async () => {
  const [a] = nodes
  const [first, second] = cluster?.servers ?? []
  if (!first || !second) throw new Error('no cluster')
  const acknowledged: string[] = []
  for (let i = 0; i < 20; i++) if (await track(a, `before-${i}`)) acknowledged.push(`before-${i}`)
  expect(acknowledged).toHaveLength(20)
  await expectStoredOnce(acknowledged, [first.url, second.url])

  await second.stop({ keepData: true })
  for (let i = 0; i < 30; i++) if (await track(a, `down-${i}`)) acknowledged.push(`down-${i}`)
  // The journal takes them: all acknowledged though half the cluster is down.
  expect(acknowledged).toHaveLength(50)
  const stats = await fetch(
    `${a.baseUrl}/api/sites/${site.siteId}/stats?start_date=2026-01-01&end_date=2026-12-31`,
    { headers: { cookie: site.cookie } },
  )
  expect(stats.status, a.output().slice(-3000)).toBe(503)
  expect(JSON.stringify(await stats.json())).toMatch(/shard of the events store's cluster does not answer/)

  restarted = await startClickHouseServer({
    configFile: cluster?.configFile,
    ports: { http: second.httpPort, tcp: second.tcpPort },
    dataDir: second.dataDir,
  })
  await expectStoredOnce(acknowledged, [first.url, restarted.url])
  const again = await fetch(
    `${a.baseUrl}/api/sites/${site.siteId}/stats?start_date=2026-01-01&end_date=2026-12-31`,
    { headers: { cookie: site.cookie } },
  )
  expect(again.status).toBe(200)
}, 240_000)

it('an API node killed with SIGKILL under load loses no acknowledged event; the other keeps serving', async () => {
  const [a, b] = nodes
  const shards = [cluster?.servers[0]?.url ?? '', restarted?.url ?? cluster?.servers[1]?.url ?? '']
  const acknowledged: string[] = []
  const afterKill = { b: 0 }
  let killed = false
  let stop = false
  let sent = 0
  const worker = async (node: SpawnedServer, id: string) => {
    while (!stop) {
      const name = `load-${id}-${sent++}`
      const wasKilled = killed
      if (await track(node, name)) {
        acknowledged.push(name)
        if (wasKilled && node === b) afterKill.b++
      } else if (node === a && killed) await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  const load = Promise.all([worker(a, 'a1'), worker(a, 'a2'), worker(b, 'b1'), worker(b, 'b2')])
  await new Promise((resolve) => setTimeout(resolve, 1500))
  await a.kill()
  killed = true
  await new Promise((resolve) => setTimeout(resolve, 1500))
  stop = true
  await load
  expect(afterKill.b).toBeGreaterThan(0)
  // The killed node back on its data directory: its journal's unsent events are inserted at start.
  const back = await spawnServer({ env, dataDir: a.dataDir })
  processes.push(back)
  await expectStoredOnce(acknowledged, shards)
  console.log(
    `SIGKILL under load: sent ${sent}, acknowledged ${acknowledged.length} (${afterKill.b} by the other node after the kill)`,
  )
}, 240_000)
