/**
 * The outbox backlog: webhook deliveries not yet delivered nor given up (status `pending`, due now or
 * waiting for a retry), across every site. Served by the `(status, next_attempt_at)` index.
 */
import type { MetadataDb } from '../storage/metadata/db.js'

/** @returns how many deliveries are pending in the metadata store */
export async function outboxBacklog(db: MetadataDb): Promise<number> {
  const row = await db
    .selectFrom('webhook_delivery')
    .select((eb) => eb.fn.countAll().as('pending'))
    .where('status', '=', 'pending')
    .executeTakeFirst()
  return Number(row?.pending ?? 0)
}
