/**
 * The outbox keeps a row for every message it has handled (kind, recipient, subject, when; the parts
 * are emptied once sent), which the instance owner's mail page lists. Rows of messages sent or failed
 * more than {@link MAIL_KEEP_DAYS} days ago are deleted, so the table does not grow for ever; pending
 * messages are never deleted, however old.
 */
import { type Clock, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'

/** Whole days a sent or failed message's row is kept after it was queued. */
export const MAIL_KEEP_DAYS = 90

/**
 * Delete the rows of messages sent or failed and queued before `clock`'s now minus `keepDays` days.
 * @returns how many rows were deleted
 */
export async function pruneMail(
  db: MetadataDb,
  { keepDays = MAIL_KEEP_DAYS, clock = systemClock }: { keepDays?: number; clock?: Clock } = {},
): Promise<number> {
  const cutoff = new Date(clock() - keepDays * 86_400_000).toISOString()
  const result = await db
    .deleteFrom('mail_message')
    .where('status', 'in', ['sent', 'failed'])
    .where('created_at', '<', cutoff)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
