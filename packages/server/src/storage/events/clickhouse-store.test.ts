import { describe, it } from 'vitest'
import { openClickHouseStore } from './clickhouse-store.js'
import { eventsStoreContract } from './events-store.contract.js'

const url = process.env.CLICKHOUSE_URL
if (url) {
  eventsStoreContract('ClickHouse server', () => openClickHouseStore(url))
} else {
  describe('events store contract: ClickHouse server', () => {
    // Skipped without a server: none runs on the CI machine (no ClickHouse package in Debian's archive).
    it.skip('needs CLICKHOUSE_URL', () => {})
  })
}
