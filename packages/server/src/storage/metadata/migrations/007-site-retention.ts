/**
 * 007: how long a site's events are kept (`site.retention_days`, whole UTC days); null keeps them as
 * long as the operator's default (`RETENTION_DAYS`) says, which is forever when that is unset.
 * Existing sites get null, so nothing is deleted until someone sets a period.
 */
import type { Kysely } from 'kysely'
import type { MetadataMigration } from './index.js'

/** Adds the nullable `site.retention_days` (integer, same type on SQLite and PostgreSQL). */
export const siteRetention: MetadataMigration = {
  name: '007-site-retention',
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('site').addColumn('retention_days', 'integer').execute()
  },
}
