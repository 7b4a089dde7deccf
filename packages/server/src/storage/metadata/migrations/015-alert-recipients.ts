/**
 * 015: the e-mail recipients of alert rules as addresses that agreed, and the organization of a mail.
 * `alert_recipient` holds each address of an `alert_rule.email_recipients` list with its state, as
 * e-mail report recipients have one: `pending` until it confirms from a link (an address outside the
 * site's organization), `active`, or `unsubscribed`, with the random token of its confirm and
 * unsubscribe links and when its confirmation mail was queued. The rules' existing addresses are
 * carried over: those of members of the site's organization `active`, the others `pending` with no
 * confirmation mail yet (one is queued when the rule is next saved with mail configured).
 * `mail_message.organization_id` names the organization a mail was sent for (invitations,
 * confirmations), so mail budgets can count per organization.
 */
import crypto from 'node:crypto'
import { type Kysely, sql } from 'kysely'
import type { MetadataMigration } from './index.js'

/** Creates `alert_recipient` (filled from `alert_rule.email_recipients`); adds `mail_message.organization_id`. */
export const alertRecipients: MetadataMigration = {
  name: '015-alert-recipients',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('alert_recipient')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('rule_id', 'text', (c) => c.notNull().references('alert_rule.id').onDelete('cascade'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('token', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('confirmation_sent_at', 'text')
      .addColumn('confirmed_at', 'text')
      .addColumn('unsubscribed_at', 'text')
      .addUniqueConstraint('alert_recipient_email_uq', ['rule_id', 'email'])
      .execute()
    await db.schema.alterTable('mail_message').addColumn('organization_id', 'text').execute()
    await db.schema
      .createIndex('mail_message_recipient_idx')
      .on('mail_message')
      .columns(['recipient', 'created_at'])
      .execute()
    await db.schema
      .createIndex('mail_message_organization_idx')
      .on('mail_message')
      .columns(['organization_id', 'created_at'])
      .execute()

    await backfillAlertRecipients(db)
  },
}

/**
 * One `alert_recipient` row for each address of each rule's `email_recipients`: `active` for members of
 * the site's organization, else `pending` (no confirmation mail queued yet). Part of the migration.
 */
export async function backfillAlertRecipients(db: Kysely<unknown>): Promise<void> {
  const { rows: rules } = await sql<{ id: string; email_recipients: string; organization_id: string }>`
    SELECT r.id, r.email_recipients, s.organization_id FROM alert_rule r
    JOIN site s ON s.site_id = r.site_id`.execute(db)
  const now = new Date().toISOString()
  for (const rule of rules) {
    const emails = JSON.parse(rule.email_recipients) as string[]
    if (emails.length === 0) continue
    const { rows: members } = await sql<{ email: string }>`
      SELECT u.email FROM member m JOIN "user" u ON u.id = m.user_id
      WHERE m.organization_id = ${rule.organization_id}`.execute(db)
    const memberEmails = new Set(members.map((m) => m.email.toLowerCase()))
    for (const email of emails) {
      const active = memberEmails.has(email)
      await sql`INSERT INTO alert_recipient (id, rule_id, email, status, token, created_at, confirmed_at)
        VALUES (${crypto.randomUUID()}, ${rule.id}, ${email}, ${active ? 'active' : 'pending'},
          ${crypto.randomBytes(24).toString('base64url')}, ${now}, ${active ? now : null})`.execute(db)
    }
  }
}
