/**
 * The events store port: where enriched events are committed and analytics queries run.
 * Adapters: chDB in process (`chdb-store.ts`, default) and a ClickHouse server (`clickhouse-store.ts`).
 * Both speak the same ClickHouse SQL; every user value is bound as `{name:Type}`, never concatenated.
 */
import type { EventRow } from './event-row.js'

export interface EventsStore {
  /** Which engine this is, for logs and health output. */
  readonly kind: 'chdb' | 'clickhouse'
  /**
   * Insert rows into `events`. Resolves only once the rows are committed (durable on disk for chDB,
   * acknowledged by the server for ClickHouse). Rejects on any failure; then none may be assumed written.
   */
  insert(rows: readonly EventRow[]): Promise<void>
  /**
   * Run a read query and return its rows (JSON output; UInt64 come back as numbers on both adapters).
   * @param params values for the query's `{name:Type}` placeholders
   */
  query<Row>(sql: string, params?: Record<string, unknown>): Promise<Row[]>
  /** Run a statement with no result (DDL, ALTER ... DELETE). */
  command(sql: string, params?: Record<string, unknown>): Promise<void>
  close(): Promise<void>
}
