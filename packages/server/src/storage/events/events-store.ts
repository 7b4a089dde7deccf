/**
 * The events store port: where enriched events are committed and analytics queries run.
 *
 * One adapter, `clickhouse-store.ts`, speaks to ClickHouse through the official `@clickhouse/client`
 * over one of two connections: `chdb/connection` to chDB in this process (`chdb-store.ts`, the
 * default) or HTTP to a ClickHouse server (`CLICKHOUSE_URL`). The queries, their parameters (written as
 * `{name:Type}` placeholders, never concatenated by the query layer; a ClickHouse server binds them, and
 * on chDB `inline-query-params.ts` writes them as escaped typed literals so that queries can run side by
 * side), the insert format (JSONCompactEachRow lines from
 * `encode-event-row.ts`) and
 * the cleanup when opening fails are the adapter's, hence the same on both connections.
 *
 * Why one adapter: the direct chDB session adapter it replaced (`Session.insert`, `queryBindAsync`) and
 * `@clickhouse/client` over `chdb/connection` timed the same, inserts and reports, with
 * `bench/events-adapter/run.ts` (figures: bench/README.md "events-adapter").
 * The cost is memory: `chdb/connection` takes the insert body as a JS string rather than a Buffer, so
 * inserting peaks higher (short-lived strings until V8's next full GC).
 */
import type { EventRow } from './event-row.js'
import type { ReplayRow } from './replay-row.js'

/** How a read query is run, beyond its SQL. */
export interface QueryOptions {
  /** A name for the query in metrics, e.g. the report (`overview`); bounded set, never request data. */
  label?: string
}

export interface EventsStore {
  /** Which connection this is (chDB in process, or a ClickHouse server), for logs and health output. */
  readonly kind: 'chdb' | 'clickhouse'
  /**
   * Insert rows into `events`. Resolves only once the rows are committed (written to chDB's data
   * directory, or acknowledged by the server). Rejects on any failure; then none may be assumed written.
   */
  insert(rows: readonly EventRow[]): Promise<void>
  /**
   * Insert rows already serialised by `encodeEventRow` (what the ingest journal holds), as `insert`
   * does: committed when it resolves, none assumed written when it rejects.
   */
  insertEncoded(lines: readonly string[]): Promise<void>
  /**
   * Insert session replay batches into `replay` (one row each; not through the events' journal).
   * Resolves only once they are committed; rejects on any failure, and then none may be assumed written.
   */
  insertReplay(rows: readonly ReplayRow[]): Promise<void>
  /**
   * Run a read query and return its rows (JSON output; UInt64 come back as numbers on both connections).
   * @param params values for the query's `{name:Type}` placeholders
   * @param options `label` names the query in metrics (the report running it; see
   *   `timed-events-store.ts`); the adapters ignore it
   */
  query<Row>(sql: string, params?: Record<string, unknown>, options?: QueryOptions): Promise<Row[]>
  /** Run a statement with no result (DDL, ALTER ... DELETE). */
  command(sql: string, params?: Record<string, unknown>): Promise<void>
  close(): Promise<void>
}
