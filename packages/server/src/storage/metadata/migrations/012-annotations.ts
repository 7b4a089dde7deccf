/**
 * 012: annotations (`annotations/annotations.ts`): notes on days of a site's chart. One row per note;
 * `date` is the calendar day YYYY-MM-DD (text, so that it sorts and compares as a day on either
 * dialect). Deleting a site deletes its annotations (ON DELETE CASCADE).
 */
import type { Kysely } from 'kysely'
import type { MetadataMigration } from './index.js'

/** Creates `annotation` and its index on (`site_id`, `date`). */
export const annotations: MetadataMigration = {
  name: '012-annotations',
  async up(db: Kysely<unknown>, dialect) {
    await db.schema
      .createTable('annotation')
      .addColumn('annotation_id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('site_id', 'integer', (c) => c.notNull().references('site.site_id').onDelete('cascade'))
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    // Listing reads a site's days in order; the cascade looks the site up (PostgreSQL indexes neither).
    await db.schema
      .createIndex('annotation_site_date_idx')
      .on('annotation')
      .columns(['site_id', 'date'])
      .execute()
  },
}
