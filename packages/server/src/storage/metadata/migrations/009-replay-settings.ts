/**
 * 009: a site's session replay settings. `replay_sample_rate` is the share of sessions recorded when
 * `session_replay` is on (0-1, decided per session id); `replay_retention_days` the whole days a
 * recording is kept after it is received. Existing sites get the defaults: every session, 30 days.
 */
import type { Kysely } from 'kysely'
import type { MetadataMigration } from './index.js'

/** Adds `site.replay_sample_rate` (a float) and `site.replay_retention_days` (integer), both NOT NULL. */
export const replaySettings: MetadataMigration = {
  name: '009-replay-settings',
  async up(db: Kysely<unknown>, dialect) {
    await db.schema
      .alterTable('site')
      .addColumn('replay_sample_rate', dialect === 'postgres' ? 'double precision' : 'real', (c) =>
        c.notNull().defaultTo(1),
      )
      .execute()
    await db.schema
      .alterTable('site')
      .addColumn('replay_retention_days', 'integer', (c) => c.notNull().defaultTo(30))
      .execute()
  },
}
