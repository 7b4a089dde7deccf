/**
 * The mail outbox: `enqueueMail` stores a message in the metadata store (`mail_message`) and resolves
 * once it is stored, so a down SMTP server or a crash loses nothing; the mail worker (`startMailWorker`
 * over `createMailRunner`) hands due messages to the SMTP server. Claims are atomic across workers as
 * for webhook deliveries (PostgreSQL `FOR UPDATE SKIP LOCKED` plus a 60 s lease, SQLite's single writer):
 * a worker that dies mid-send leaves a lease that expires, and the message is sent again (at least once).
 * A failed attempt is retried on the webhook schedule (`webhooks/retry-schedule.ts`: 8 attempts over
 * about a day, with jitter); a permanent refusal of the message itself (an SMTP 5xx reply to its
 * recipient or its content: `smtp-sender.ts`) fails it at once. A sent message keeps its row (kind, recipient, subject, when) without its
 * parts, which may hold one-time links.
 */
import crypto from 'node:crypto'
import type { mailMessage } from '@pathlight/protocol'
import type { z } from 'zod'
import { conflict, notFound } from '../shared/errors.js'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import { claimDueRows } from '../storage/metadata/claim-due-rows.js'
import type { MetadataDb, MetadataStore } from '../storage/metadata/db.js'
import type { MailMessageTable } from '../storage/metadata/mail-schema.js'
import { nextRetryDelay } from '../webhooks/retry-schedule.js'
import type { OutgoingMail } from './outgoing-mail.js'

export const MAIL_LEASE_MS = 60_000

/**
 * Store a message for sending. Callers check first that mail is configured (`requireMail`): the row
 * waits in the outbox until a worker with SMTP settings sends it.
 * @param now when it is due (default the current time)
 * @returns the id of the stored message
 */
export async function enqueueMail(
  db: MetadataDb,
  mail: OutgoingMail,
  now: Date = new Date(),
): Promise<{ mailId: string }> {
  const mailId = crypto.randomUUID()
  const at = now.toISOString()
  await db
    .insertInto('mail_message')
    .values({
      id: mailId,
      kind: mail.kind,
      recipient: mail.to,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      headers: JSON.stringify(mail.headers ?? {}),
      status: 'pending',
      attempts: 0,
      next_attempt_at: at,
      locked_until: null,
      last_error: null,
      created_at: at,
      sent_at: null,
      organization_id: mail.organizationId ?? null,
    })
    .execute()
  return { mailId }
}

/** How one send went: `ok`, or the error and whether trying again could help. */
export type SendResult = { ok: true } | { ok: false; error: string; permanent: boolean }

/** Hands one message to the SMTP server (`smtp-sender.ts`); never throws. */
export type SendMail = (mail: OutgoingMail & { id: string }) => Promise<SendResult>

export interface MailRunnerOptions {
  send: SendMail
  clock?: Clock
  /** A number in [0, 1), for the retry jitter (injectable for tests). */
  random?: () => number
  batchSize?: number
  /** Told of each attempt (the metrics count failures). */
  onAttempt?: (result: SendResult) => void
}

/** One pass of the mail worker: claim what is due, send each, record. */
export interface MailRunner {
  /** Claim and send one batch. @returns how many messages were attempted */
  runOnce(): Promise<number>
}

/**
 * The sending side of the outbox: each `runOnce` claims up to `batchSize` (default 20) due messages,
 * sends them side by side and records each result (sent; failed; or the next attempt's time).
 */
export function createMailRunner(store: MetadataStore, options: MailRunnerOptions): MailRunner {
  const clock = options.clock ?? systemClock
  const batchSize = options.batchSize ?? 20

  function claim(): Promise<MailMessageTable[]> {
    return claimDueRows<MailMessageTable>(store, 'mail_message', { clock, leaseMs: MAIL_LEASE_MS, batchSize })
  }

  async function attempt(row: MailMessageTable): Promise<void> {
    const result = await options.send({
      id: row.id,
      kind: row.kind,
      to: row.recipient,
      subject: row.subject,
      html: row.html,
      text: row.text,
      headers: JSON.parse(row.headers) as Record<string, string>,
    })
    options.onAttempt?.(result)
    const attempts = Number(row.attempts) + 1
    const retryIn = result.ok || result.permanent ? null : nextRetryDelay(attempts, options.random)
    await store.db
      .updateTable('mail_message')
      .set({
        attempts,
        locked_until: null,
        ...(result.ok
          ? { status: 'sent', sent_at: isoNow(clock), html: '', text: '', last_error: null }
          : retryIn === null
            ? { status: 'failed', last_error: result.error }
            : { last_error: result.error, next_attempt_at: new Date(clock() + retryIn).toISOString() }),
      })
      .where('id', '=', row.id)
      .execute()
  }

  return {
    async runOnce() {
      const due = await claim()
      await Promise.all(due.map(attempt))
      return due.length
    },
  }
}

/** Counts of the outbox by status (the metrics and the operator's list). */
export async function mailCounts(db: MetadataDb): Promise<Record<MailMessageTable['status'], number>> {
  const rows = await db
    .selectFrom('mail_message')
    .select(['status', db.fn.countAll<number | string>().as('n')])
    .groupBy('status')
    .execute()
  const counts = { pending: 0, sent: 0, failed: 0 }
  for (const row of rows) counts[row.status] = Number(row.n)
  return counts
}

/** One message of the outbox as the operator sees it (no parts): the protocol's `mailMessage`. */
export type MailListEntry = z.output<typeof mailMessage>

/** The outbox, newest first. @param options.limit 1-500 */
export async function listMail(
  db: MetadataDb,
  options: { status?: MailMessageTable['status']; limit: number },
): Promise<MailListEntry[]> {
  let query = db
    .selectFrom('mail_message')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(options.limit)
  if (options.status) query = query.where('status', '=', options.status)
  const rows = await query.execute()
  return rows.map(toListEntry)
}

/**
 * Make a failed message due again with a fresh retry schedule (attempts back to 0).
 * @throws 404 no message with this id; 409 the message is not failed
 */
export async function retryMail(
  db: MetadataDb,
  mailId: string,
  now: Date = new Date(),
): Promise<MailListEntry> {
  const row = await db.selectFrom('mail_message').selectAll().where('id', '=', mailId).executeTakeFirst()
  if (!row) throw notFound('Message not found')
  if (row.status !== 'failed') throw conflict('Only a failed message can be sent again')
  const due = {
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: now.toISOString(),
    locked_until: null,
  }
  await db
    .updateTable('mail_message')
    .set(due)
    .where('id', '=', mailId)
    .where('status', '=', 'failed')
    .execute()
  return toListEntry({ ...row, ...due })
}

function toListEntry(r: MailMessageTable): MailListEntry {
  return {
    id: r.id,
    kind: r.kind,
    to: r.recipient,
    subject: r.subject,
    status: r.status,
    attempts: Number(r.attempts),
    lastError: r.last_error,
    createdAt: r.created_at,
    nextAttemptAt: r.status === 'pending' ? r.next_attempt_at : null,
    sentAt: r.sent_at,
  }
}
