/**
 * Run as a script (`node --import tsx migrate-events-directory.ts DIR`): create a chDB events data
 * directory at DIR with every events migration applied, then close it. The test run's setup
 * (`test-run-setup.ts`) makes its template this way, in a process of its own: chDB binds one data
 * directory per process, and vitest's own process must stay free of it.
 */
import { openChdbStore } from '../storage/events/chdb-store.js'

const dir = process.argv[2]
if (!dir) {
  console.error('usage: migrate-events-directory.ts DIR')
  process.exit(2)
}
const store = await openChdbStore(dir)
await store.close()
