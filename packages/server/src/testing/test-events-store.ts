/**
 * Test support: the events store a test runs on, chosen by the run ({@link TEST_EVENTS_ENV}): chDB in
 * the test's process (default), or, in the server pass, a database of its own on the ClickHouse server
 * that the pass's setup started (`clickhouse-server-setup.ts`), dropped when the store closes.
 */
import crypto from 'node:crypto'
import { openChdbStore } from '../storage/events/chdb-store.js'
import { openClickHouseStore } from '../storage/events/clickhouse-store.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { CLICKHOUSE_SERVER_ENV, TEST_EVENTS_ENV } from './test-run-env.js'

/** Whether this run's events store is a ClickHouse server (the server pass). */
export function testEventsOnServer(): boolean {
  return process.env[TEST_EVENTS_ENV] === 'clickhouse-server'
}

/**
 * A database on the server pass's ClickHouse server (created by the store that opens it).
 * @param key names it: the same key, the same database (a server restarted on its data directory
 *   finds its events again); default a new random one
 * @returns its `CLICKHOUSE_URL` and a function that drops it
 * @throws outside the server pass (no server started)
 */
export function createTempClickHouseDatabase(key?: string): { url: string; drop(): Promise<void> } {
  const server = process.env[CLICKHOUSE_SERVER_ENV]
  if (!server) {
    throw new Error(
      `${TEST_EVENTS_ENV}=clickhouse-server needs the server pass's setup (${CLICKHOUSE_SERVER_ENV} is unset): ` +
        'run it through vitest with the repository configuration (npm run test:clickhouse-server)',
    )
  }
  const suffix =
    key === undefined
      ? crypto.randomBytes(6).toString('hex')
      : crypto.createHash('sha256').update(key).digest('hex').slice(0, 12)
  const name = `pathlight_test_${suffix}`
  return {
    url: `${server}/${name}`,
    async drop() {
      const response = await fetch(server, { method: 'POST', body: `DROP DATABASE IF EXISTS ${name} SYNC` })
      if (!response.ok) throw new Error(`DROP DATABASE ${name}: ${response.status} ${await response.text()}`)
    },
  }
}

/**
 * Open the run's events store: chDB on `dataPath`, or (server pass) a new database on the server,
 * which `close()` drops.
 * @param options as {@link openChdbStore}'s; `rawInsert` applies to chDB only
 */
export async function openTestEventsStore(
  dataPath: string,
  options: { rawInsert?: boolean; queryTimeoutSeconds?: number } = {},
): Promise<EventsStore> {
  if (!testEventsOnServer()) return openChdbStore(dataPath, options)
  const database = createTempClickHouseDatabase()
  const store = await openClickHouseStore(database.url, { queryTimeoutSeconds: options.queryTimeoutSeconds })
  return {
    ...store,
    async close() {
      await store.close()
      await database.drop()
    },
  }
}
