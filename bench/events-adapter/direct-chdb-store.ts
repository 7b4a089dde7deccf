/**
 * The baseline of the events-adapter benchmark: the direct chDB session adapter that Pathlight had
 * until issue 12, item 5 (`storage/events/chdb-store.ts` before it became `@clickhouse/client` over
 * `chdb/connection`), kept as it was: rows serialised to one JSONEachRow buffer and handed to
 * `Session.insert`, queries through `Session.queryBindAsync`. Not used by the server.
 */
import fs from 'node:fs'
import { Session } from 'chdb'
import {
  EVENT_COLUMNS,
  EVENT_ROW_FORMAT,
  encodeEventRow,
} from '../../packages/server/src/storage/events/encode-event-row.js'
import type { EventRow } from '../../packages/server/src/storage/events/event-row.js'
import type { EventsStore } from '../../packages/server/src/storage/events/events-store.js'
import { migrateEvents } from '../../packages/server/src/storage/events/migrations/index.js'

/** @param dataPath chDB's data directory (the one this process may have; another session may share it) */
export async function openDirectChdbStore(dataPath: string): Promise<EventsStore> {
  fs.mkdirSync(dataPath, { recursive: true })
  const session = new Session(dataPath)
  const store: EventsStore = {
    kind: 'chdb',
    async insert(rows: readonly EventRow[]) {
      await store.insertEncoded(rows.map(encodeEventRow))
    },
    async insertEncoded(lines: readonly string[]) {
      if (lines.length === 0) return
      await session.insert({
        table: 'events',
        values: Buffer.from(`${lines.join('\n')}\n`),
        format: EVENT_ROW_FORMAT,
        columns: EVENT_COLUMNS,
      })
    },
    async insertReplay() {
      throw new Error('The benchmark adapter stores no session replays')
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
