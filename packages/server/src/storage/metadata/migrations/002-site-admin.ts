/**
 * 002: the private link key of a site, and the audit trail of administrative actions.
 */
import type { Kysely } from 'kysely'
import type { MetadataMigration } from './index.js'

export const siteAdmin: MetadataMigration = {
  name: '002-site-admin',
  async up(db: Kysely<unknown>, dialect) {
    await db.schema.alterTable('site').addColumn('private_link_key', 'text').execute()
    await db.schema.createIndex('site_private_link_key_idx').on('site').column('private_link_key').execute()

    await db.schema
      .createTable('audit_log')
      // seq orders entries made within the same millisecond.
      .addColumn('seq', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('site_id', 'integer')
      .addColumn('actor_user_id', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('details', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('audit_log_organization_idx')
      .on('audit_log')
      .columns(['organization_id', 'created_at'])
      .execute()
  },
}
