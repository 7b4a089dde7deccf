/**
 * The delivery log keeps a row for every delivery (the signed body, status, attempts, each attempt's
 * response), which the webhook's page lists and from which a delivery can be sent again. Rows of
 * deliveries delivered or failed (retries exhausted) more than {@link DELIVERY_KEEP_DAYS} days after
 * they were enqueued are deleted with their attempts, so the tables do not grow for ever; a pending
 * delivery is never deleted, however old. Kept a shorter time than the mail outbox's rows: a site
 * subscribed to `event.tracked` stores a delivery per event, and each body holds visitor data.
 */
import { type Clock, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'

/** Whole days a delivered or failed delivery's row is kept after it was enqueued. */
export const DELIVERY_KEEP_DAYS = 30

/** Deliveries deleted per statement (the attempts go with them, by the foreign key's cascade). */
const PAGE = 1_000

/**
 * Delete the deliveries delivered or failed and enqueued before `clock`'s now minus `keepDays` days,
 * with their attempts, a page at a time.
 * @returns how many deliveries were deleted
 */
export async function pruneDeliveries(
  db: MetadataDb,
  { keepDays = DELIVERY_KEEP_DAYS, clock = systemClock }: { keepDays?: number; clock?: Clock } = {},
): Promise<number> {
  const cutoff = new Date(clock() - keepDays * 86_400_000).toISOString()
  let deleted = 0
  for (;;) {
    const ids = (
      await db
        .selectFrom('webhook_delivery')
        .select('id')
        .where('status', 'in', ['delivered', 'failed'])
        .where('created_at', '<', cutoff)
        .limit(PAGE)
        .execute()
    ).map((row) => row.id)
    if (ids.length === 0) return deleted
    await db.deleteFrom('webhook_delivery').where('id', 'in', ids).execute()
    deleted += ids.length
  }
}
