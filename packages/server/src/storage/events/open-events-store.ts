/**
 * Choose the events store's connection from configuration: a ClickHouse server when a URL is given,
 * spread over a sharded cluster when `clickhouseCluster` is given too, else chDB in this process under
 * `${dataDir}/events`.
 */
import path from 'node:path'
import { openChdbStore } from './chdb-store.js'
import { type ClickHouseClusterSettings, openClickHouseClusterStore } from './clickhouse-cluster-store.js'
import { openClickHouseStore } from './clickhouse-store.js'
import type { EventsStore } from './events-store.js'

/**
 * @param options.queryTimeoutSeconds how long a read query may run (default
 *   `DEFAULT_QUERY_TIMEOUT_SECONDS` of `clickhouse-store.ts`)
 * @throws what the chosen store's opening throws (a locked directory, an unreachable server)
 */
export function openEventsStore(options: {
  clickhouseUrl?: string
  clickhouseCluster?: ClickHouseClusterSettings
  dataDir: string
  queryTimeoutSeconds?: number
}): Promise<EventsStore> {
  const { queryTimeoutSeconds } = options
  if (options.clickhouseUrl && options.clickhouseCluster)
    return openClickHouseClusterStore(options.clickhouseUrl, options.clickhouseCluster, {
      queryTimeoutSeconds,
    })
  return options.clickhouseUrl
    ? openClickHouseStore(options.clickhouseUrl, { queryTimeoutSeconds })
    : openChdbStore(path.join(options.dataDir, 'events'), { queryTimeoutSeconds })
}
