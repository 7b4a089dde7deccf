/**
 * Vitest's global setup for the cluster pass (`PATHLIGHT_TEST_EVENTS=clickhouse-cluster`, see
 * `vitest.config.ts`): a cluster of two ClickHouse servers, one shard each (`startClickHouseCluster`),
 * for the whole run; its name and addresses go to the test files in {@link CLICKHOUSE_CLUSTER_ENV},
 * {@link CLICKHOUSE_SHARDS_ENV} and {@link CLICKHOUSE_SERVER_ENV} (the first shard, where each test's
 * store sends its queries). Stopped, with its data, when the run ends.
 */
import { startClickHouseCluster } from './clickhouse-server.js'
import { CLICKHOUSE_CLUSTER_ENV, CLICKHOUSE_SERVER_ENV, CLICKHOUSE_SHARDS_ENV } from './test-run-env.js'

/** How many shards the cluster pass runs on. */
export const CLUSTER_PASS_SHARDS = 2

/** @returns the teardown */
export default async function setup(): Promise<() => Promise<void>> {
  const cluster = await startClickHouseCluster(CLUSTER_PASS_SHARDS)
  const urls = cluster.servers.map((server) => server.url)
  process.env[CLICKHOUSE_CLUSTER_ENV] = cluster.name
  process.env[CLICKHOUSE_SHARDS_ENV] = urls.join(',')
  process.env[CLICKHOUSE_SERVER_ENV] = urls[0]
  console.log(`ClickHouse cluster ${cluster.name} for this run: shards ${urls.join(', ')}`)
  return async () => {
    for (const name of [CLICKHOUSE_CLUSTER_ENV, CLICKHOUSE_SHARDS_ENV, CLICKHOUSE_SERVER_ENV])
      delete process.env[name]
    await cluster.stop()
  }
}
