/**
 * The mail budget on a real metadata store (SQLite and PostgreSQL): invitation and confirmation mails
 * per address and per organization in a sliding 24-hour window, counted from the outbox's rows whatever
 * their status; other mail kinds do not count; `Retry-After` is when the oldest counted mail leaves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MetadataStore, openMetadataStore } from '../storage/metadata/db.js'
import { createTempDatabase } from '../testing/postgres.js'
import { checkMailBudget, requireMailBudget } from './mail-budget.js'
import { enqueueMail } from './mail-outbox.js'

const budget = { perRecipient: 3, perOrganization: 5, windowMs: 86_400_000 }
const hour = 3_600_000

describe.each([
  ['SQLite', false],
  ['PostgreSQL', true],
])('mail budget on %s', (_name, postgres) => {
  let store: MetadataStore
  let drop: (() => Promise<void>) | undefined
  const start = Date.parse('2026-05-04T08:00:00.000Z')

  beforeAll(async () => {
    if (postgres) {
      const database = await createTempDatabase()
      drop = database.drop
      store = await openMetadataStore({ postgres: database.url })
    } else store = await openMetadataStore({ sqlite: ':memory:' })
  })
  afterAll(async () => {
    await store.close()
    await drop?.()
  })

  const send = (kind: string, to: string, organizationId: string, at: number) =>
    enqueueMail(store.db, { kind, to, subject: 's', html: 'h', text: 't', organizationId }, new Date(at))

  it('allows a few per address and refuses the next until the oldest leaves the window', async () => {
    for (let i = 0; i < 3; i++) {
      expect(
        await checkMailBudget(
          store.db,
          { recipient: 'a@example.com', organizationId: 'o1' },
          budget,
          start + i * hour,
        ),
      ).toEqual({ ok: true })
      await send('invitation', 'a@example.com', 'o1', start + i * hour)
    }
    // Mails of other kinds (a password reset, an alert) are not counted.
    await send('password-reset', 'a@example.com', 'o1', start)
    const at = start + 5 * hour
    expect(
      await checkMailBudget(store.db, { recipient: 'A@example.com', organizationId: 'o2' }, budget, at),
    ).toEqual({ ok: false, reason: 'recipient', retryAfterSeconds: 19 * 3600 })
    await expect(
      requireMailBudget(store.db, { recipient: 'a@example.com', organizationId: 'o2' }, budget, at),
    ).rejects.toMatchObject({
      status: 429,
      message: 'Too many invitation and confirmation mails to a@example.com: at most 3 in 24 hours',
      headers: { 'retry-after': String(19 * 3600) },
    })
    expect(
      await checkMailBudget(
        store.db,
        { recipient: 'a@example.com', organizationId: 'o1' },
        budget,
        start + 24 * hour + 1,
      ),
    ).toEqual({ ok: true })
  })

  it('caps an organization whatever the addresses', async () => {
    const t0 = start + 48 * hour
    for (let i = 0; i < 5; i++)
      await send(i % 2 ? 'alert-confirmation' : 'email-report-confirmation', `p${i}@example.com`, 'big', t0)
    const check = await checkMailBudget(
      store.db,
      { recipient: 'new@example.com', organizationId: 'big' },
      budget,
      t0 + hour,
    )
    expect(check).toEqual({ ok: false, reason: 'organization', retryAfterSeconds: 23 * 3600 })
    expect(
      await checkMailBudget(
        store.db,
        { recipient: 'new@example.com', organizationId: 'small' },
        budget,
        t0 + hour,
      ),
    ).toEqual({ ok: true })
  })
})
