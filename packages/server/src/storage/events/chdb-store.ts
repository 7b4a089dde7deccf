/**
 * Events store on chDB: ClickHouse embedded in this process, data under `DATA_DIR/events`.
 * chDB locks its data directory: one process at a time (a second gets "Cannot lock file").
 * Only the async calls are used; `query()` would block the event loop.
 */
import fs from 'node:fs'
import { Session } from 'chdb'
import type { EventRow } from './event-row.js'
import type { EventsStore } from './events-store.js'
import { migrateEvents } from './migrations/index.js'
import { toInsertJson } from './to-insert-json.js'

/**
 * Open (creating if needed) the chDB data directory and migrate the schema.
 * @param dataPath directory for chDB's files, e.g. `${DATA_DIR}/events`
 * @throws when the directory is locked by another process or a migration fails
 */
export async function openChdbStore(dataPath: string): Promise<EventsStore> {
  fs.mkdirSync(dataPath, { recursive: true })
  const session = new Session(dataPath)
  const store: EventsStore = {
    kind: 'chdb',
    async insert(rows: readonly EventRow[]) {
      if (rows.length === 0) return
      await session.insert({
        table: 'events',
        values: Buffer.from(toInsertJson(rows)),
        format: 'JSONEachRow',
      })
    },
    async query<Row>(sql: string, params: Record<string, unknown> = {}) {
      const result = await session.queryBindAsync(sql, params, { format: 'JSON' })
      const text = result.text()
      if (text === '') return []
      return (JSON.parse(text) as { data: Row[] }).data
    },
    async command(sql: string, params: Record<string, unknown> = {}) {
      await session.queryBindAsync(sql, params, { format: 'JSON' })
    },
    async close() {
      if (session.open) session.close()
    },
  }
  try {
    await migrateEvents(store)
  } catch (error) {
    session.close()
    throw error
  }
  return store
}
