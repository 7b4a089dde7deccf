/**
 * Choose the events store's connection from configuration: a ClickHouse server when a URL is given,
 * else chDB in this process under `${dataDir}/events`.
 */
import path from 'node:path'
import { openChdbStore } from './chdb-store.js'
import { openClickHouseStore } from './clickhouse-store.js'
import type { EventsStore } from './events-store.js'

export function openEventsStore(options: { clickhouseUrl?: string; dataDir: string }): Promise<EventsStore> {
  return options.clickhouseUrl
    ? openClickHouseStore(options.clickhouseUrl)
    : openChdbStore(path.join(options.dataDir, 'events'))
}
