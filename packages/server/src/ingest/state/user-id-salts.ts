/**
 * Salts for anonymous user ids (for the `putUserId` stage). With a site's `saltUserIds`, the salt is
 * random per UTC day and shared by every API node through the metadata store, so a visitor cannot be
 * linked across days; salts older than two days are deleted. Without it, a per-instance secret keeps
 * ids stable.
 */
import crypto from 'node:crypto'
import type { MetadataDb } from '../../storage/metadata/db.js'

export interface UserIdSalts {
  /** The secret for sites without `saltUserIds`. */
  readonly instance: string
  /** The salt of the UTC day containing `now` (epoch ms), created on first use. */
  forDay(now: number): Promise<string>
}

export function createUserIdSalts(db: MetadataDb, instanceSecret: string): UserIdSalts {
  const cache = new Map<string, string>()
  return {
    instance: instanceSecret,
    async forDay(now) {
      const day = new Date(now).toISOString().slice(0, 10)
      const cached = cache.get(day)
      if (cached) return cached
      await db
        .insertInto('user_id_salt')
        .values({
          day,
          salt: crypto.randomBytes(32).toString('hex'),
          created_at: new Date(now).toISOString(),
        })
        .onConflict((oc) => oc.column('day').doNothing())
        .execute()
      const row = await db
        .selectFrom('user_id_salt')
        .select('salt')
        .where('day', '=', day)
        .executeTakeFirstOrThrow()
      const cutoff = new Date(now - 2 * 86_400_000).toISOString().slice(0, 10)
      await db.deleteFrom('user_id_salt').where('day', '<', cutoff).execute()
      cache.clear()
      cache.set(day, row.salt)
      return row.salt
    },
  }
}
