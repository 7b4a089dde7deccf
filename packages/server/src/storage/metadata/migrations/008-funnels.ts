/**
 * 008: saved funnels (`funnels/funnel.ts`). One row per funnel; `steps` holds its steps as a JSON array
 * (validated by `funnels/funnel-input.ts` before it is written). Deleting a site deletes its funnels
 * (ON DELETE CASCADE).
 */
import type { Kysely } from 'kysely'
import type { MetadataMigration } from './index.js'

/** Creates `funnel` and its index on `site_id`. */
export const funnels: MetadataMigration = {
  name: '008-funnels',
  async up(db: Kysely<unknown>, dialect) {
    await db.schema
      .createTable('funnel')
      .addColumn('funnel_id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('site_id', 'integer', (c) => c.notNull().references('site.site_id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('steps', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    // PostgreSQL does not index a referencing column by itself; listing and the cascade look it up.
    await db.schema.createIndex('funnel_site_idx').on('funnel').column('site_id').execute()
  },
}
