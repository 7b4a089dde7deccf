/**
 * Claiming the due rows of an outbox table (webhook deliveries, mail messages): rows `pending` whose
 * `next_attempt_at` has come and whose lease (`locked_until`) is absent or past get a new lease, so that
 * one runner among several processes attempts each. PostgreSQL skips rows another runner has locked
 * (`FOR UPDATE SKIP LOCKED`); SQLite has one writer at a time.
 */
import { sql } from 'kysely'
import type { Clock } from '../../shared/time.js'
import { isoNow } from '../../shared/time.js'
import type { MetadataStore } from './db.js'

/** A table with the outbox columns `id`, `status`, `next_attempt_at`, `locked_until`. */
export type OutboxTable = 'webhook_delivery' | 'mail_message'

/**
 * Lease and answer up to `batchSize` due rows of `table`, oldest due first.
 * @param leaseMs how long the claim holds, milliseconds (past it, another runner may claim the row)
 * @returns the claimed rows, whole
 */
export async function claimDueRows<Row>(
  store: MetadataStore,
  table: OutboxTable,
  { clock, leaseMs, batchSize }: { clock: Clock; leaseMs: number; batchSize: number },
): Promise<Row[]> {
  const now = isoNow(clock)
  const lease = new Date(clock() + leaseMs).toISOString()
  const lock = store.dialect === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``
  const result = await sql<Row>`
    UPDATE ${sql.table(table)} SET locked_until = ${lease}
    WHERE id IN (
      SELECT id FROM ${sql.table(table)}
      WHERE status = 'pending' AND next_attempt_at <= ${now}
        AND (locked_until IS NULL OR locked_until < ${now})
      ORDER BY next_attempt_at
      LIMIT ${batchSize}
      ${lock}
    )
    RETURNING *`.execute(store.db)
  return result.rows
}
