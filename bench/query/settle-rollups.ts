/**
 * After a benchmark's bulk load: fold every closed session into its summary and seal the pages' closed
 * months (what the server's fold pass does within minutes of the inserts), and merge every table's parts
 * (what background merges do within hours), so that reports are timed on the state a long-running server
 * has.
 */
import type { EventsStore } from '../../packages/server/src/storage/events/events-store.js'
import { foldSessions } from '../../packages/server/src/storage/events/fold-sessions.js'
import { EVERY_ROLLUP_TABLE } from '../../packages/server/src/storage/events/rollup-tables.js'
import { sealPageMonths } from '../../packages/server/src/storage/events/seal-page-months.js'

/**
 * Fold and seal the pages' closed months (no settling time), then `OPTIMIZE TABLE ... FINAL` the events
 * and every rollup table.
 */
export async function settleRollups(events: EventsStore): Promise<void> {
  await foldSessions(events, { settleMs: 0 })
  await sealPageMonths(events, { settleMs: 0 })
  for (const table of ['events', ...EVERY_ROLLUP_TABLE]) {
    await events.command(`OPTIMIZE TABLE ${table} FINAL`)
  }
}
