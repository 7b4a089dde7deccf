/**
 * Test support: the events store a test runs on, chosen by the run ({@link TEST_EVENTS_ENV}): chDB in
 * the test's process (default); in the server pass, a database of its own on the ClickHouse server
 * that the pass's setup started (`clickhouse-server-setup.ts`); in the cluster pass, a database of its
 * own on the two-shard cluster of `clickhouse-cluster-setup.ts`. Either is dropped when the store closes.
 */
import crypto from 'node:crypto'
import { openChdbStore } from '../storage/events/chdb-store.js'
import { openClickHouseClusterStore } from '../storage/events/clickhouse-cluster-store.js'
import { openClickHouseStore } from '../storage/events/clickhouse-store.js'
import type { EventsStore } from '../storage/events/events-store.js'
import {
  CLICKHOUSE_CLUSTER_ENV,
  CLICKHOUSE_SERVER_ENV,
  CLICKHOUSE_SHARDS_ENV,
  TEST_EVENTS_ENV,
} from './test-run-env.js'

/** Whether this run's events store is on ClickHouse servers (the server pass or the cluster pass). */
export function testEventsOnServer(): boolean {
  const events = process.env[TEST_EVENTS_ENV]
  return events === 'clickhouse-server' || events === 'clickhouse-cluster'
}

/** Whether this run's events store is the two-shard cluster (the cluster pass). */
export function testEventsOnCluster(): boolean {
  return process.env[TEST_EVENTS_ENV] === 'clickhouse-cluster'
}

/** A test's database on the run's server or cluster. */
export interface TempClickHouseDatabase {
  /** Its `CLICKHOUSE_URL`. */
  url: string
  /** The settings that point a server at it: `CLICKHOUSE_URL`, and on the cluster its two settings. */
  env: Record<string, string>
  /** The cluster's settings, in the cluster pass. */
  cluster?: { cluster: string; shardUrls: string[] }
  drop(): Promise<void>
}

/**
 * A database on the pass's ClickHouse server or cluster (created by the store that opens it).
 * @param key names it: the same key, the same database (a server restarted on its data directory
 *   finds its events again); default a new random one
 * @throws outside the server and cluster passes (no server started)
 */
export function createTempClickHouseDatabase(key?: string): TempClickHouseDatabase {
  const server = process.env[CLICKHOUSE_SERVER_ENV]
  if (!server) {
    throw new Error(
      `${TEST_EVENTS_ENV}=${process.env[TEST_EVENTS_ENV]} needs the pass's setup (${CLICKHOUSE_SERVER_ENV} is unset): ` +
        'run it through vitest with the repository configuration (npm run test:clickhouse-server)',
    )
  }
  const suffix =
    key === undefined
      ? crypto.randomBytes(6).toString('hex')
      : crypto.createHash('sha256').update(key).digest('hex').slice(0, 12)
  const name = `pathlight_test_${suffix}`
  const url = `${server}/${name}`
  const shardUrls = testEventsOnCluster() ? (process.env[CLICKHOUSE_SHARDS_ENV] ?? '').split(',') : []
  const cluster = testEventsOnCluster()
    ? { cluster: process.env[CLICKHOUSE_CLUSTER_ENV] ?? '', shardUrls }
    : undefined
  const drops = cluster
    ? shardUrls.flatMap((shard) => [`${shard}|${name}`, `${shard}|${name}_shard`])
    : [`${server}|${name}`]
  return {
    url,
    env: {
      CLICKHOUSE_URL: url,
      ...(cluster
        ? { CLICKHOUSE_CLUSTER: cluster.cluster, CLICKHOUSE_SHARD_URLS: cluster.shardUrls.join(',') }
        : {}),
    },
    cluster,
    async drop() {
      for (const pair of drops) {
        const [address, database] = pair.split('|') as [string, string]
        const response = await fetch(address, {
          method: 'POST',
          body: `DROP DATABASE IF EXISTS ${database} SYNC`,
        })
        if (!response.ok)
          throw new Error(`DROP DATABASE ${database}: ${response.status} ${await response.text()}`)
      }
    },
  }
}

/**
 * Open the run's events store: chDB on `dataPath`, or (server and cluster passes) a new database on
 * the server or cluster, which `close()` drops.
 * @param options as {@link openChdbStore}'s; `rawInsert` applies to chDB only
 */
export async function openTestEventsStore(
  dataPath: string,
  options: { rawInsert?: boolean; queryTimeoutSeconds?: number } = {},
): Promise<EventsStore> {
  if (!testEventsOnServer()) return openChdbStore(dataPath, options)
  const database = createTempClickHouseDatabase()
  const timeout = { queryTimeoutSeconds: options.queryTimeoutSeconds }
  const store = database.cluster
    ? await openClickHouseClusterStore(database.url, database.cluster, timeout)
    : await openClickHouseStore(database.url, timeout)
  return {
    ...store,
    async close() {
      await store.close()
      await database.drop()
    },
  }
}
