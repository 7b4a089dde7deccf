/**
 * `npm run clickhouse [-- --count N] [--cluster NAME]`: start N (default 1) ClickHouse servers from the installed
 * libchdb for working on Pathlight (`clickhouse-server.ts`: the real engine and HTTP handlers, a test
 * fixture, not `clickhouse-server`), print their addresses, and stop them, with their data, on Ctrl-C
 * or SIGTERM. Point Pathlight at one with `CLICKHOUSE_URL=<address>/pathlight`. With `--cluster`, the
 * servers are the shards of a cluster of that name (`remote_servers`, for `Distributed` tables).
 */
import { parseArgs } from 'node:util'
import { startClickHouseCluster, startClickHouseServers } from './clickhouse-server.js'

const { values } = parseArgs({
  options: { count: { type: 'string', default: '1' }, cluster: { type: 'string' } },
})
const count = Number(values.count)
if (!Number.isInteger(count) || count < 1 || count > 16) {
  console.error(`--count: expected a whole number from 1 to 16, got "${values.count}"`)
  process.exit(2)
}

try {
  const cluster =
    values.cluster === undefined ? undefined : await startClickHouseCluster(count, { name: values.cluster })
  const servers = cluster ? cluster.servers : await startClickHouseServers(count)
  if (cluster)
    console.log(`Cluster ${cluster.name} of ${count} shard(s), configuration ${cluster.configFile}`)
  for (const server of servers) {
    console.log(
      `ClickHouse server: ${server.url} (native protocol port ${server.tcpPort}, pid ${server.pid})\n` +
        `  data ${server.dataDir}\n  log  ${server.logFile}\n  CLICKHOUSE_URL=${server.url}/pathlight`,
    )
  }
  console.log('Ctrl-C stops them and removes their data.')
  const stop = async () => {
    await (cluster ? cluster.stop() : Promise.all(servers.map((server) => server.stop())))
    process.exit(0)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
} catch (error) {
  console.error((error as Error).message)
  process.exit(1)
}
