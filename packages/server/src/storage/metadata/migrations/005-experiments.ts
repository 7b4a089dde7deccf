/**
 * 005: A/B experiments (`experiments/experiment.ts`). One row per experiment; `variants` holds the
 * variants as a JSON array (validated by `experiments/experiment-input.ts` before it is written).
 * Deleting a site deletes its experiments (ON DELETE CASCADE); deleting the experiment's goal keeps
 * the experiment with `goal_id` NULL (ON DELETE SET NULL). Keys are unique per site.
 */
import type { Kysely } from 'kysely'
import type { MetadataMigration } from './index.js'

/** Creates `experiment` and its unique (site_id, experiment_key) index. */
export const experiments: MetadataMigration = {
  name: '005-experiments',
  async up(db: Kysely<unknown>, dialect) {
    await db.schema
      .createTable('experiment')
      .addColumn('experiment_id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('site_id', 'integer', (c) => c.notNull().references('site.site_id').onDelete('cascade'))
      .addColumn('experiment_key', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('variants', 'text', (c) => c.notNull())
      .addColumn('goal_id', 'integer', (c) => c.references('goal.goal_id').onDelete('set null'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('experiment_site_key_idx')
      .on('experiment')
      .columns(['site_id', 'experiment_key'])
      .unique()
      .execute()
    // PostgreSQL does not index a referencing column by itself; SET NULL on goal deletion looks it up.
    await db.schema.createIndex('experiment_goal_idx').on('experiment').column('goal_id').execute()
  },
}
