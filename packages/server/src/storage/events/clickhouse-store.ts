/**
 * The events store's adapter: ClickHouse through the official `@clickhouse/client`, over whichever
 * connection the client was made with (`chdb/connection` in `chdb-store.ts`, HTTP here). Everything
 * but the connection is here, so both connections bind parameters, insert rows and fail alike.
 * 64-bit integers come back unquoted; rows go in as JSONCompactEachRow lines (`encodeEventRow`), sent
 * as one body: through the connection's raw insert when it has one (chDB: a Buffer, no copy), else as
 * the body of an `INSERT ... FORMAT` statement (HTTP).
 */
import { Readable } from 'node:stream'
import { type ClickHouseClient, ClickHouseLogLevel, createClient } from '@clickhouse/client'
import { toClickHouseTime } from './clickhouse-time.js'
import { EVENT_COLUMNS, EVENT_ROW_FORMAT, encodeEventRow } from './encode-event-row.js'
import type { EventRow } from './event-row.js'
import type { EventsStore } from './events-store.js'
import { inlineQueryParams } from './inline-query-params.js'
import { migrateEvents } from './migrations/index.js'
import { type ReplayRow, replayInsertColumns, toReplayInsertRow } from './replay-row.js'

/**
 * The events store on a ClickHouse server (`CLICKHOUSE_URL`, e.g. http://user:pass@host:8123/pathlight).
 * The database is the URL's path ('default' when empty) and is created when missing.
 * @param options.queryTimeoutSeconds how long a read query may run ({@link DEFAULT_QUERY_TIMEOUT_SECONDS})
 * @throws when the server cannot be reached or a migration fails (nothing is left open)
 */
export async function openClickHouseStore(
  url: string,
  options: {
    queryTimeoutSeconds?: number
    /**
     * Whether to migrate the database (default true). False for a cluster's query database, whose
     * tables are made by `clickhouse-cluster-store.ts`.
     */
    migrate?: boolean
    /** Settings every request of this store carries, beyond the adapter's own. */
    settings?: Record<string, string | number>
  } = {},
): Promise<EventsStore> {
  const parsed = new URL(url)
  const database = parsed.pathname.replace(/^\//, '') || 'default'
  parsed.pathname = '/'
  // The client's own log (console lines of every failed request) is off: each failure is thrown to
  // the caller, which logs it in the server's log format, or answers it.
  const log = { level: ClickHouseLogLevel.OFF }
  const admin = createClient({ url: parsed.toString(), log })
  try {
    await admin.command({ query: `CREATE DATABASE IF NOT EXISTS ${quoteIdentifier(database)}` })
  } finally {
    await admin.close()
  }
  const client = createClient({
    url: parsed.toString(),
    database,
    log,
    clickhouse_settings: {
      output_format_json_quote_64bit_integers: 0,
      wait_end_of_query: 1,
      ...options.settings,
    },
  })
  const store = await clickHouseStore(client, 'clickhouse', undefined, { migrate: options.migrate })
  return {
    ...store,
    query: (sql, params = {}) => {
      const bound = paramsForUrl(sql, params)
      return readRows(client, bound.sql, bound.params, { timeoutSeconds: options.queryTimeoutSeconds })
    },
    command: (sql, params = {}) => {
      const bound = paramsForUrl(sql, params)
      return store.command(bound.sql, bound.params)
    },
  }
}

/**
 * The most URL-encoded parameter bytes a request to a server carries in its URL, where
 * `@clickhouse/client` puts them (`param_<name>=...`). ClickHouse refuses a parameter of more than
 * 128 KiB (`http_max_field_value_size`: "HTML Form Exception: Field value too long"; journal recovery's
 * 4,000 UUIDs are about 150 KB) and a URL of more than 1 MiB (`http_max_uri_size`), and proxies in front
 * of it commonly refuse a request line of more than 8 KiB; a few kilobytes leave room for the rest of
 * the URL (settings, query id).
 */
export const MAX_URL_PARAM_BYTES = 4096

/**
 * Bound parameters as the server gets them: in the URL while they are small, else written into the
 * SQL as typed literals (`inline-query-params.ts`), which goes in the request's body. Either way a
 * value is data, never SQL.
 * @throws what `inlineQueryParams` throws for a value it cannot write
 */
export function paramsForUrl(
  sql: string,
  params: Record<string, unknown>,
): { sql: string; params: Record<string, unknown> } {
  let bytes = 0
  for (const [name, value] of Object.entries(params)) {
    bytes +=
      name.length + 8 + encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value)).length
    if (bytes > MAX_URL_PARAM_BYTES) return { sql: inlineQueryParams(sql, params), params: {} }
  }
  return { sql, params }
}

/**
 * A connection's own way to insert a body of encoded rows (chDB's `rawInsert`, which takes a Buffer
 * as it is); resolves once committed.
 */
export type RawEventsInsert = (body: Buffer, columns: readonly string[], format: string) => Promise<void>

const INSERT_EVENTS = `INSERT INTO events (${EVENT_COLUMNS.join(', ')}) FORMAT ${EVENT_ROW_FORMAT}`

/**
 * The events store over a `@clickhouse/client` client, which it owns from then on. Migrates the schema
 * before resolving.
 * @param kind which connection the client has, for logs and health output
 * @param rawInsert the connection's raw insert, when it has one; otherwise rows go as an `INSERT`
 *   statement's body through `client.exec`
 * @param options.migrate false to leave the schema as it is (default true)
 * @throws when a migration fails, after closing the client (so chDB's data directory is free again)
 */
export async function clickHouseStore(
  client: ClickHouseClient,
  kind: EventsStore['kind'],
  rawInsert?: RawEventsInsert,
  options: { migrate?: boolean } = {},
): Promise<EventsStore> {
  const insertEncoded = async (lines: readonly string[]) => {
    if (lines.length === 0) return
    const body = Buffer.from(`${lines.join('\n')}\n`, 'utf8')
    if (rawInsert) return rawInsert(body, EVENT_COLUMNS, EVENT_ROW_FORMAT)
    const result = await client.exec({ query: INSERT_EVENTS, values: Readable.from([body]) })
    // The answer is empty; reading it to the end frees the connection.
    for await (const _ of result.stream) {
    }
  }
  const store: EventsStore = {
    kind,
    insert: (rows: readonly EventRow[]) => insertEncoded(rows.map(encodeEventRow)),
    insertEncoded,
    async insertReplay(rows: readonly ReplayRow[]) {
      if (rows.length === 0) return
      await client.insert({
        table: 'replay',
        values: rows.map((row) => toReplayInsertRow(row, toClickHouseTime)),
        // Named, so that the ephemeral `payload_base64` is an input column (`payload` is made from it).
        columns: [...replayInsertColumns],
        format: 'JSONEachRow',
      })
    },
    query: <Row>(sql: string, params: Record<string, unknown> = {}) => readRows<Row>(client, sql, params),
    async command(sql: string, params: Record<string, unknown> = {}) {
      await client.command({ query: sql, query_params: params })
    },
    close: () => client.close(),
  }
  if (options.migrate === false) return store
  try {
    await migrateEvents(store)
  } catch (error) {
    await client.close()
    throw error
  }
  return store
}

/**
 * How long a read query may run before the store stops it, in seconds (ClickHouse's
 * `max_execution_time`): a report that runs longer fails with `TIMEOUT_EXCEEDED`, which the HTTP layer
 * answers 503, instead of holding a query session and CPUs. Statements (migrations, the fold) have
 * no bound.
 */
export const DEFAULT_QUERY_TIMEOUT_SECONDS = 60

/** What a read query is run with, beyond its SQL. */
export interface ReadSettings {
  /** ClickHouse's `max_threads` for this query (default: the server's, the CPU count). */
  maxThreads?: number
  /** ClickHouse's `max_execution_time`, seconds (default {@link DEFAULT_QUERY_TIMEOUT_SECONDS}). */
  timeoutSeconds?: number
  /**
   * ClickHouse's `os_thread_priority`: the Linux nice value (-20 to 19) of the threads running this
   * query; needs CAP_SYS_NICE, else ClickHouse ignores it. Default the threads' own (0).
   */
  threadNiceness?: number
}

/**
 * Run a read query through `client` and return its rows (JSON output, 64-bit integers as numbers).
 * @param params values of the query's `{name:Type}` placeholders, bound by the connection
 * @throws the store's error; `TIMEOUT_EXCEEDED` when the query ran past `settings.timeoutSeconds`
 */
export async function readRows<Row>(
  client: ClickHouseClient,
  sql: string,
  params: Record<string, unknown> = {},
  settings: ReadSettings = {},
): Promise<Row[]> {
  const result = await client.query({
    query: sql,
    query_params: params,
    format: 'JSON',
    clickhouse_settings: {
      output_format_json_quote_64bit_integers: 0,
      max_execution_time: settings.timeoutSeconds ?? DEFAULT_QUERY_TIMEOUT_SECONDS,
      ...(settings.maxThreads === undefined ? {} : { max_threads: settings.maxThreads }),
      ...(settings.threadNiceness === undefined
        ? {}
        : { os_thread_priority: String(settings.threadNiceness) }),
    },
  })
  return ((await result.json()) as { data: Row[] }).data
}

/**
 * A ClickHouse identifier written for SQL (backquoted).
 * @throws naming CLICKHOUSE_URL for a name that is not letters, digits and `_`
 */
export function quoteIdentifier(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new Error(`CLICKHOUSE_URL: invalid database name "${name}"`)
  return `\`${name}\``
}
