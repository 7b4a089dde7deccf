/**
 * Events store on a ClickHouse server (`CLICKHOUSE_URL`, e.g. http://user:pass@host:8123/pathlight),
 * through the official `@clickhouse/client`. The database is the URL's path ('default' when empty)
 * and is created when missing. 64-bit integers are returned unquoted, as chDB returns them.
 */
import { type ClickHouseClient, createClient } from '@clickhouse/client'
import type { EventRow } from './event-row.js'
import type { EventsStore } from './events-store.js'
import { migrateEvents } from './migrations/index.js'
import { toInsertRow } from './to-insert-json.js'

/** @throws when the server cannot be reached or a migration fails */
export async function openClickHouseStore(url: string): Promise<EventsStore> {
  const parsed = new URL(url)
  const database = parsed.pathname.replace(/^\//, '') || 'default'
  parsed.pathname = '/'
  const admin = createClient({ url: parsed.toString() })
  await admin.command({ query: `CREATE DATABASE IF NOT EXISTS ${quoteIdentifier(database)}` })
  await admin.close()
  const client = createClient({
    url: parsed.toString(),
    database,
    clickhouse_settings: { output_format_json_quote_64bit_integers: 0, wait_end_of_query: 1 },
  })
  return clickHouseStore(client)
}

/**
 * The events store over any `@clickhouse/client` client (an HTTP connection to a server, or, in the
 * adapter's tests, `chdb/connection`). Migrates the schema before resolving.
 */
export async function clickHouseStore(client: ClickHouseClient): Promise<EventsStore> {
  const store: EventsStore = {
    kind: 'clickhouse',
    async insert(rows: readonly EventRow[]) {
      if (rows.length === 0) return
      await client.insert({
        table: 'events',
        values: rows.map(toInsertRow),
        format: 'JSONEachRow',
      })
    },
    async query<Row>(sql: string, params: Record<string, unknown> = {}) {
      const result = await client.query({
        query: sql,
        query_params: params,
        format: 'JSON',
        clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
      })
      return ((await result.json()) as { data: Row[] }).data
    },
    async command(sql: string, params: Record<string, unknown> = {}) {
      await client.command({ query: sql, query_params: params })
    },
    close: () => client.close(),
  }
  await migrateEvents(store)
  return store
}

function quoteIdentifier(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new Error(`CLICKHOUSE_URL: invalid database name "${name}"`)
  return `\`${name}\``
}
