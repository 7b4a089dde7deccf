/**
 * 003: conversion goals (path or event goals of a site). One row per goal; `config` holds the goal type's
 * configuration as a JSON object (validated by `goals/goal-input.ts` before it is written).
 * Deleting a site deletes its goals (ON DELETE CASCADE).
 */
import type { Kysely } from 'kysely'
import type { MetadataMigration } from './index.js'

/** Creates `goal` and its (site_id, goal_id) index. */
export const goals: MetadataMigration = {
  name: '003-goals',
  async up(db: Kysely<unknown>, dialect) {
    await db.schema
      .createTable('goal')
      .addColumn('goal_id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('site_id', 'integer', (c) => c.notNull().references('site.site_id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('goal_type', 'text', (c) => c.notNull())
      .addColumn('config', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('goal_site_idx').on('goal').columns(['site_id', 'goal_id']).execute()
  },
}
