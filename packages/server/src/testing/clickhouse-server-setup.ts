/**
 * Vitest's global setup for the server pass (`PATHLIGHT_TEST_EVENTS=clickhouse-server`, see
 * `vitest.config.ts`): one ClickHouse server for the whole run (`clickhouse-server.ts`), its address
 * handed to the test files in {@link CLICKHOUSE_SERVER_ENV}; each test's events store is a database of
 * its own on it (`test-events-store.ts`). Stopped, with its data, when the run ends.
 */
import { startClickHouseServer } from './clickhouse-server.js'
import { CLICKHOUSE_SERVER_ENV } from './test-run-env.js'

/** @returns the teardown */
export default async function setup(): Promise<() => Promise<void>> {
  const server = await startClickHouseServer()
  process.env[CLICKHOUSE_SERVER_ENV] = server.url
  console.log(`ClickHouse server for this run: ${server.url} (pid ${server.pid}, log ${server.logFile})`)
  return async () => {
    delete process.env[CLICKHOUSE_SERVER_ENV]
    await server.stop()
  }
}
