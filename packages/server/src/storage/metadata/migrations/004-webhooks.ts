/**
 * 004: outgoing webhooks (subscriptions, the delivery outbox, the attempt log) and alert rules.
 * Every table hangs off a site with ON DELETE CASCADE, so deleting a site removes them.
 */
import { type Kysely, sql } from 'kysely'
import type { MetadataMigration } from './index.js'

export const webhooks: MetadataMigration = {
  name: '004-webhooks',
  async up(db: Kysely<unknown>, dialect) {
    const bool = dialect === 'postgres' ? 'boolean' : 'integer'

    await db.schema
      .createTable('webhook')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('site_id', 'integer', (c) => c.notNull().references('site.site_id').onDelete('cascade'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('enabled', sql.raw(bool), (c) => c.notNull())
      .addColumn('disabled_reason', 'text')
      .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failing_since', 'text')
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('webhook_site_idx').on('webhook').column('site_id').execute()

    await db.schema
      .createTable('webhook_delivery')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhook.id').onDelete('cascade'))
      .addColumn('site_id', 'integer', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('locked_until', 'text')
      .addColumn('last_status_code', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('delivered_at', 'text')
      .execute()
    await db.schema
      .createIndex('webhook_delivery_due_idx')
      .on('webhook_delivery')
      .columns(['status', 'next_attempt_at'])
      .execute()
    await db.schema
      .createIndex('webhook_delivery_webhook_idx')
      .on('webhook_delivery')
      .columns(['webhook_id', 'created_at'])
      .execute()

    await db.schema
      .createTable('webhook_attempt')
      .addColumn('seq', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('delivery_id', 'text', (c) =>
        c.notNull().references('webhook_delivery.id').onDelete('cascade'),
      )
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('response_body', 'text', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('webhook_attempt_delivery_idx')
      .on('webhook_attempt')
      .column('delivery_id')
      .execute()

    await db.schema
      .createTable('alert_rule')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('site_id', 'integer', (c) => c.notNull().references('site.site_id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('metric', 'text', (c) => c.notNull())
      .addColumn('event_name', 'text')
      .addColumn('goal_id', 'integer')
      .addColumn('window_minutes', 'integer', (c) => c.notNull())
      .addColumn('comparison', 'text', (c) => c.notNull())
      .addColumn('threshold', 'double precision', (c) => c.notNull())
      .addColumn('relative', sql.raw(bool), (c) => c.notNull())
      .addColumn('enabled', sql.raw(bool), (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('last_value', 'double precision')
      .addColumn('last_evaluated_at', 'text')
      .addColumn('last_triggered_at', 'text')
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('alert_rule_site_idx').on('alert_rule').column('site_id').execute()
  },
}
