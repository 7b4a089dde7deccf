/**
 * 016: the tracking switches Rybbit's web SDK reads (`GET /api/site/tracking-config/{siteId}`) that
 * Pathlight had no column for, and identified users' profiles.
 * - `site.track_initial_pageview`, `track_spa_navigation` (on by default, as the SDK's defaults),
 *   `track_button_clicks`, `track_copy`, `track_form_interactions` (off by default);
 * - `user_profile`: one row per identified user of a site (`user_id` as the site sends it), its traits as
 *   a JSON object `{key: {value, changedAt}}` (the last value per key and when it changed);
 * - `visitor_link`: an anonymous visitor id (`putUserId`'s hash) linked to the user it identified as
 *   (`POST /api/identify`), so that visitor's later events carry the user id.
 * Traits live here rather than in the events store: they are mutable state (last value per key), read
 * by key, erased per user; the events store is append-only. Deleting a site deletes both (cascade).
 */
import { type Kysely, sql } from 'kysely'
import type { MetadataMigration } from './index.js'

/** Adds the five `site` switches and creates `user_profile` and `visitor_link`. */
export const trackingSwitchesAndUsers: MetadataMigration = {
  name: '016-tracking-switches-and-users',
  async up(db: Kysely<unknown>, dialect) {
    const bool = dialect === 'postgres' ? 'boolean' : 'integer'
    const on = dialect === 'postgres' ? sql`true` : sql`1`
    const off = dialect === 'postgres' ? sql`false` : sql`0`
    for (const [column, value] of [
      ['track_initial_pageview', on],
      ['track_spa_navigation', on],
      ['track_button_clicks', off],
      ['track_copy', off],
      ['track_form_interactions', off],
    ] as const) {
      await db.schema
        .alterTable('site')
        .addColumn(column, sql.raw(bool), (c) => c.notNull().defaultTo(value))
        .execute()
    }
    await db.schema
      .createTable('user_profile')
      .addColumn('site_id', 'integer', (c) => c.notNull().references('site.site_id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('traits', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('user_profile_pk', ['site_id', 'user_id'])
      .execute()
    await db.schema
      .createTable('visitor_link')
      .addColumn('site_id', 'integer', (c) => c.notNull().references('site.site_id').onDelete('cascade'))
      .addColumn('visitor_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('linked_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('visitor_link_pk', ['site_id', 'visitor_id'])
      .execute()
    // Erasure and export find a user's links by user id.
    await db.schema
      .createIndex('visitor_link_user_idx')
      .on('visitor_link')
      .columns(['site_id', 'user_id'])
      .execute()
  },
}
