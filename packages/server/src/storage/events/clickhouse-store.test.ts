import { afterAll, beforeAll } from 'vitest'
import { type ClickHouseServer, startClickHouseServer } from '../../testing/clickhouse-server.js'
import { openTestEventsStore } from '../../testing/test-events-store.js'
import { CLICKHOUSE_SERVER_ENV } from '../../testing/test-run-env.js'
import { eventsStoreContract } from './events-store.contract.js'

// The server pass's server, or one of this file's own in the chDB pass (this file tests the server
// adapter: it runs on a server in both).
let own: ClickHouseServer | undefined
beforeAll(async () => {
  if (process.env[CLICKHOUSE_SERVER_ENV]) return
  own = await startClickHouseServer()
  process.env[CLICKHOUSE_SERVER_ENV] = own.url
  process.env.PATHLIGHT_TEST_EVENTS = 'clickhouse-server'
})
afterAll(async () => {
  await own?.stop()
})

eventsStoreContract('ClickHouse server', () => openTestEventsStore(''))
