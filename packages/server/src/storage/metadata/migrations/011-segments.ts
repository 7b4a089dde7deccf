/**
 * 011: saved segments (named filters of a site). `filters` holds the filters as the `filters` query
 * parameter does (a JSON array, checked by its parser before it is written); `visibility` is
 * 'personal' (its creator's alone) or 'site'. Deleting the site, or the creator's account, deletes
 * the segment (ON DELETE CASCADE).
 */
import type { Kysely } from 'kysely'
import type { MetadataMigration } from './index.js'

/** Creates `segment` and its (site_id, segment_id) index. */
export const segments: MetadataMigration = {
  name: '011-segments',
  async up(db: Kysely<unknown>, dialect) {
    await db.schema
      .createTable('segment')
      .addColumn('segment_id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('site_id', 'integer', (c) => c.notNull().references('site.site_id').onDelete('cascade'))
      .addColumn('created_by', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('filters', 'text', (c) => c.notNull())
      .addColumn('visibility', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('segment_site_idx').on('segment').columns(['site_id', 'segment_id']).execute()
  },
}
