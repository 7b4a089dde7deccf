/**
 * 013: outgoing e-mail and invitations. `mail_message` is the durable mail outbox (`mail/mail-outbox.ts`):
 * one row per message, pending until the worker has handed it to the SMTP server, with its attempts and
 * last error. `invitation` holds the invitations to an organization (`organizations/invitations.ts`),
 * found by the SHA-256 of their token; they go with their organization.
 */
import type { Kysely } from 'kysely'
import type { MetadataMigration } from './index.js'

/** Creates `mail_message` and `invitation`. */
export const mail: MetadataMigration = {
  name: '013-mail',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('mail_message')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('recipient', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('html', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('headers', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('locked_until', 'text')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text')
      .execute()
    await db.schema
      .createIndex('mail_message_due_idx')
      .on('mail_message')
      .columns(['status', 'next_attempt_at'])
      .execute()
    await db.schema
      .createTable('invitation')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) =>
        c.notNull().references('organization.id').onDelete('cascade'),
      )
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('invited_by', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('ended_at', 'text')
      .execute()
    await db.schema
      .createIndex('invitation_organization_idx')
      .on('invitation')
      .columns(['organization_id', 'status'])
      .execute()
  },
}
