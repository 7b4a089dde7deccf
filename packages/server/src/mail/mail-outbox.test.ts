/**
 * The mail outbox against a real SMTP server in this process, on SQLite and on PostgreSQL: what is
 * enqueued arrives with both parts and its headers; with the SMTP server down, nothing is lost and
 * everything arrives once it is back (on the retry schedule); a permanent refusal fails the message
 * at once; retries end after the schedule's last attempt.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../config.js'
import { type MetadataStore, openMetadataStore } from '../storage/metadata/db.js'
import { createTempDatabase } from '../testing/postgres.js'
import { type SmtpReceiver, startSmtpReceiver } from '../testing/smtp-receiver.js'
import { MAX_ATTEMPTS } from '../webhooks/retry-schedule.js'
import { createMailRunner, enqueueMail, type MailRunner, mailCounts } from './mail-outbox.js'
import { MAIL_KEEP_DAYS, pruneMail } from './prune-mail.js'
import { createSmtpSender } from './smtp-sender.js'

const mail = (n: number, to = `person${n}@example.com`) => ({
  kind: 'test',
  to,
  subject: `Message ${n}`,
  html: `<p>Hello <b>${n}</b></p>`,
  text: `Hello ${n}`,
  headers: { 'List-Unsubscribe': `<https://pathlight.example/unsubscribe/${n}>` },
})

describe.each([
  ['SQLite', false],
  ['PostgreSQL', true],
])('mail outbox on %s', (_name, postgres) => {
  let store: MetadataStore
  let drop: (() => Promise<void>) | undefined
  let receiver: SmtpReceiver
  let runner: MailRunner
  let now = Date.parse('2026-05-04T08:00:00.000Z')

  beforeAll(async () => {
    receiver = await startSmtpReceiver({ reject: ['nobody@example.com'] })
    if (postgres) {
      const database = await createTempDatabase()
      drop = database.drop
      store = await openMetadataStore({ postgres: database.url })
    } else store = await openMetadataStore({ sqlite: ':memory:' })
    const config = loadConfig({
      SMTP_URL: receiver.url,
      MAIL_FROM: 'Pathlight Test <mail@pathlight.example>',
    })
    if (!config.mail) throw new Error('SMTP_URL did not configure mail')
    runner = createMailRunner(store, {
      send: createSmtpSender(config.mail),
      clock: () => now,
      random: () => 0.5,
    })
  })
  afterAll(async () => {
    await store.close()
    await drop?.()
    await receiver.close()
  })
  afterEach(async () => {
    await receiver.up()
    await store.db.deleteFrom('mail_message').execute()
    receiver.received.length = 0
  })

  const row = (id: string) =>
    store.db.selectFrom('mail_message').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

  it('sends both parts, the headers and the sender, then keeps the row without its parts', async () => {
    const { mailId } = await enqueueMail(store.db, mail(1), new Date(now))
    expect(await runner.runOnce()).toBe(1)
    const [got] = await receiver.waitFor(1)
    expect(got?.to).toEqual(['person1@example.com'])
    expect(got?.from).toBe('mail@pathlight.example')
    expect(got?.headers.get('from')).toBe('Pathlight Test <mail@pathlight.example>')
    expect(got?.subject).toBe('Message 1')
    expect(got?.html).toContain('<p>Hello <b>1</b></p>')
    expect(got?.text.trim()).toBe('Hello 1')
    expect(got?.headers.get('list-unsubscribe')).toBe('<https://pathlight.example/unsubscribe/1>')
    expect(got?.headers.get('message-id')).toBe(`<${mailId}@pathlight.example>`)
    expect(await row(mailId)).toMatchObject({
      status: 'sent',
      attempts: 1,
      html: '',
      text: '',
      last_error: null,
    })
    expect(await runner.runOnce()).toBe(0)
  })

  it('loses nothing while the SMTP server is down and delivers each message once it is back', async () => {
    await receiver.down()
    const ids: string[] = []
    for (let n = 1; n <= 5; n++) ids.push((await enqueueMail(store.db, mail(n), new Date(now))).mailId)
    expect(await runner.runOnce()).toBe(5)
    for (const id of ids) {
      const r = await row(id)
      expect(r).toMatchObject({ status: 'pending', attempts: 1 })
      expect(r.last_error).toMatch(/ECONNREFUSED|connect/i)
      // The first retry is a minute later (the jitter is 0 with random() = 0.5).
      expect(r.next_attempt_at).toBe(new Date(now + 60_000).toISOString())
    }
    expect(await runner.runOnce()).toBe(0) // not due yet
    now += 60_000
    expect(await runner.runOnce()).toBe(5) // due, still down: second failure
    expect(await mailCounts(store.db)).toEqual({ pending: 5, sent: 0, failed: 0 })
    await receiver.up()
    now += 5 * 60_000
    expect(await runner.runOnce()).toBe(5)
    const got = await receiver.waitFor(5)
    expect(got.map((m) => m.subject).sort()).toEqual([1, 2, 3, 4, 5].map((n) => `Message ${n}`))
    expect(await mailCounts(store.db)).toEqual({ pending: 0, sent: 5, failed: 0 })
    for (const id of ids) expect((await row(id)).attempts).toBe(3)
  })

  it('fails a message the SMTP server refuses for good at once, with its reply', async () => {
    const { mailId } = await enqueueMail(store.db, mail(7, 'nobody@example.com'), new Date(now))
    expect(await runner.runOnce()).toBe(1)
    const r = await row(mailId)
    expect(r).toMatchObject({ status: 'failed', attempts: 1 })
    expect(r.last_error).toMatch(/550/)
    expect(receiver.received).toHaveLength(0)
  })

  it('keeps retrying while the SMTP server refuses the login (a configuration to fix, not the message)', async () => {
    const strict = await startSmtpReceiver({ refuseLogin: true })
    try {
      const settings = loadConfig({ SMTP_URL: strict.url }).mail
      if (!settings) throw new Error('SMTP_URL did not configure mail')
      const refused = createMailRunner(store, {
        send: createSmtpSender(settings),
        clock: () => now,
        random: () => 0.5,
      })
      const { mailId } = await enqueueMail(store.db, mail(9), new Date(now))
      expect(await refused.runOnce()).toBe(1)
      const r = await row(mailId)
      expect(r).toMatchObject({ status: 'pending', attempts: 1 })
      expect(r.last_error).toMatch(/535|Invalid login/)
      expect(strict.received).toHaveLength(0)
    } finally {
      await strict.close()
    }
  })

  it('gives up after the last attempt of the retry schedule', async () => {
    await receiver.down()
    const { mailId } = await enqueueMail(store.db, mail(8), new Date(now))
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect(await runner.runOnce()).toBe(1)
      now = Date.parse((await row(mailId)).next_attempt_at)
    }
    expect(await row(mailId)).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS })
    expect(await runner.runOnce()).toBe(0)
  })

  it('prunes the rows of messages sent or failed more than 90 days ago, never a pending one', async () => {
    const day = 86_400_000
    const queuedAt = now
    const sent = await enqueueMail(store.db, mail(1), new Date(queuedAt))
    const failed = await enqueueMail(store.db, mail(2, 'nobody@example.com'), new Date(queuedAt))
    expect(await runner.runOnce()).toBe(2)
    now = queuedAt + 2 * day
    const recent = await enqueueMail(store.db, mail(4), new Date(now))
    expect(await runner.runOnce()).toBe(1)
    // Queued as long ago as the first two, not sent yet (no worker pass after it).
    const pending = await enqueueMail(store.db, mail(3), new Date(queuedAt))
    const statuses = async () =>
      Object.fromEntries(
        (await store.db.selectFrom('mail_message').select(['id', 'status']).execute()).map((r) => [
          r.id,
          r.status,
        ]),
      )
    expect(await statuses()).toEqual({
      [sent.mailId]: 'sent',
      [failed.mailId]: 'failed',
      [pending.mailId]: 'pending',
      [recent.mailId]: 'sent',
    })
    // 90 days after the first three were queued: kept; a millisecond later, the handled two go.
    expect(await pruneMail(store.db, { clock: () => queuedAt + MAIL_KEEP_DAYS * day })).toBe(0)
    expect(await pruneMail(store.db, { clock: () => queuedAt + MAIL_KEEP_DAYS * day + 1 })).toBe(2)
    expect(await statuses()).toEqual({ [pending.mailId]: 'pending', [recent.mailId]: 'sent' })
    now = queuedAt
  })
})
