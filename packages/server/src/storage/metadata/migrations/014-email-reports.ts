/**
 * 014: scheduled e-mail reports and alert e-mails. `email_report` is one schedule of a site (weekly or
 * monthly, in an IANA time zone); `email_report_recipient` its addresses, each `pending` until
 * confirmed (addresses outside the site's organization), `active`, or `unsubscribed`, with the random
 * token of its confirm and unsubscribe links; `email_report_send` records each period sent, unique per
 * report and period start, so a period goes out once. `alert_rule.email_recipients` is a JSON array of
 * the addresses an alert rule mails when it fires (`[]`: webhooks only).
 */
import type { Kysely } from 'kysely'
import type { MetadataMigration } from './index.js'

/** Creates `email_report`, `email_report_recipient`, `email_report_send`; adds `alert_rule.email_recipients`. */
export const emailReports: MetadataMigration = {
  name: '014-email-reports',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('email_report')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('site_id', 'integer', (c) => c.notNull().references('site.site_id').onDelete('cascade'))
      .addColumn('frequency', 'text', (c) => c.notNull())
      .addColumn('time_zone', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('email_report_site_idx').on('email_report').column('site_id').execute()
    await db.schema
      .createTable('email_report_recipient')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('report_id', 'text', (c) => c.notNull().references('email_report.id').onDelete('cascade'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('token', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('confirmed_at', 'text')
      .addColumn('unsubscribed_at', 'text')
      .addUniqueConstraint('email_report_recipient_email_uq', ['report_id', 'email'])
      .execute()
    await db.schema
      .createTable('email_report_send')
      .addColumn('report_id', 'text', (c) => c.notNull().references('email_report.id').onDelete('cascade'))
      .addColumn('start_date', 'text', (c) => c.notNull())
      .addColumn('end_date', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text', (c) => c.notNull())
      .addColumn('recipients', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('email_report_send_pk', ['report_id', 'start_date'])
      .execute()
    await db.schema
      .alterTable('alert_rule')
      .addColumn('email_recipients', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute()
  },
}
