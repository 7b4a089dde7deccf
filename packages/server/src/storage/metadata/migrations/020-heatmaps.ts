/**
 * 020: the `site.heatmaps` switch (off by default): with it on, the tracking script loads the heatmap
 * chunk (`/api/script-heatmap.js`), which records clicks against the clicked element, and the tracking
 * endpoint stores `heatmap_click` events (refused as `type_disabled` while it is off).
 */
import { type Kysely, sql } from 'kysely'
import type { MetadataMigration } from './index.js'

/** Adds `site.heatmaps`. */
export const heatmaps: MetadataMigration = {
  name: '020-heatmaps',
  async up(db: Kysely<unknown>, dialect) {
    const bool = dialect === 'postgres' ? 'boolean' : 'integer'
    const off = dialect === 'postgres' ? sql`false` : sql`0`
    await db.schema
      .alterTable('site')
      .addColumn('heatmaps', sql.raw(bool), (c) => c.notNull().defaultTo(off))
      .execute()
  },
}
