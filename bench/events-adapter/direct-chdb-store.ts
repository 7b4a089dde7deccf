/**
 * The baseline of the events-adapter benchmark: the direct chDB session adapter that Pathlight had
 * until issue 12, item 5 (`storage/events/chdb-store.ts` before it became `@clickhouse/client` over
 * `chdb/connection`), kept as it was: rows serialised to one JSONEachRow buffer and handed to
 * `Session.insert`, queries through `Session.queryBindAsync`. Not used by the server.
 */
import fs from 'node:fs'
import { Session } from 'chdb'
import { toClickHouseTime } from '../../packages/server/src/storage/events/clickhouse-time.js'
import type { EventRow } from '../../packages/server/src/storage/events/event-row.js'
import type { EventsStore } from '../../packages/server/src/storage/events/events-store.js'
import { migrateEvents } from '../../packages/server/src/storage/events/migrations/index.js'
import { toInsertRow } from '../../packages/server/src/storage/events/to-insert-row.js'

/** @param dataPath chDB's data directory (the one this process may have; another session may share it) */
export async function openDirectChdbStore(dataPath: string): Promise<EventsStore> {
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

/** Newline-separated JSON objects, one per row (stringified once; the rare row with a lone surrogate redone). */
function toInsertJson(rows: readonly EventRow[]): string {
  let out = ''
  for (const row of rows) {
    const line = JSON.stringify({ ...row, timestamp: toClickHouseTime(row.timestamp) })
    out += ESCAPED_SURROGATE.test(line) ? JSON.stringify(toInsertRow(row)) : line
    out += '\n'
  }
  return out
}

/** A surrogate as JSON.stringify escapes it (it escapes lone ones only). */
const ESCAPED_SURROGATE = /\\ud[89a-f]/
