/**
 * The backfill of rollup tables that materialized views keep from now on: empty them, then roll up the
 * stored events one calendar month (UTC) at a time, which bounds the memory of each `INSERT ... SELECT`.
 * Emptying first makes a backfill cut off halfway safe to run again: nothing counts twice.
 */
import type { EventsStore } from '../events-store.js'

/**
 * Truncate `tables`, then run `inserts(where)` for each month of stored events, `where` a condition on
 * `events` selecting that month.
 * @throws the store's error (a migration's backfill that throws is not recorded and runs again)
 */
export async function refillByMonth(
  store: EventsStore,
  tables: readonly string[],
  inserts: (where: string) => readonly string[],
): Promise<void> {
  for (const table of tables) await store.command(`TRUNCATE TABLE ${table}`)
  const months = await store.query<{ month: number }>(
    'SELECT DISTINCT toYYYYMM(timestamp) AS month FROM events ORDER BY month',
  )
  for (const { month } of months) {
    for (const statement of inserts(`toYYYYMM(timestamp) = ${Number(month)}`)) await store.command(statement)
  }
}
