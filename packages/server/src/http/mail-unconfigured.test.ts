/**
 * Without SMTP_URL, every feature that would mail says so plainly and pretends nothing: password reset
 * requests answer 503 with the reason for known and unknown addresses alike, invitations are refused
 * (503, nothing stored), the direct add still adds without a notice, and the instance owner's mail
 * list says mail is not configured. Sign-up is closed here (DISABLE_SIGNUP) but for invited addresses.
 */
import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

describe('without SMTP_URL', () => {
  let t: TestInstance
  let owner: { cookie: string; userId: string }
  let organizationId: string

  beforeAll(async () => {
    t = await openTestInstance({ env: { DISABLE_SIGNUP: 'true' } })
    owner = await t.signUp('owner@example.com')
    organizationId = await t.createOrganization(owner.cookie)
  })
  afterAll(() => t.close())

  it('refuses password reset requests with the reason, whatever the address', async () => {
    const ask = (email: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/request-password-reset', payload: { email } })
    const known = await ask('owner@example.com')
    const unknown = await ask('nobody@example.com')
    expect(known.statusCode).toBe(503)
    expect(known.json()).toMatchObject({ message: 'E-mail is not configured: set SMTP_URL' })
    expect(unknown.statusCode).toBe(503)
    expect(unknown.body).toBe(known.body)
  })

  it('refuses invitations with the reason and stores nothing', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/organizations/${organizationId}/invitations`,
      headers: { cookie: owner.cookie },
      payload: { email: 'bob@example.com', role: 'member' },
    })
    expect(response.statusCode).toBe(503)
    expect(response.json()).toEqual({ success: false, error: 'E-mail is not configured: set SMTP_URL' })
    expect(await t.services.metadata.db.selectFrom('invitation').selectAll().execute()).toEqual([])
    expect(await t.services.metadata.db.selectFrom('mail_message').selectAll().execute()).toEqual([])
  })

  /** A pending invitation stored directly (this instance cannot mail one). */
  const invited = (email: string) =>
    t.services.metadata.db
      .insertInto('invitation')
      .values({
        id: crypto.randomUUID(),
        organization_id: organizationId,
        email,
        role: 'member',
        token_hash: crypto.createHash('sha256').update(crypto.randomUUID()).digest('hex'),
        invited_by: owner.userId,
        status: 'pending',
        created_at: new Date().toISOString(),
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
        ended_at: null,
      })
      .execute()

  it('keeps closed sign-up open to an address with a pending invitation only', async () => {
    const signUp = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: { name: 'Someone', email, password: 'correct horse battery staple' },
      })
    expect((await signUp('stranger@example.com')).statusCode).toBe(403)
    await invited('gina@example.com')
    expect((await signUp('Gina@Example.com')).statusCode).toBe(200)
  })

  it('adds an existing account directly without a notice, and tells the owner mail is off', async () => {
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/organizations/${organizationId}/members`,
      headers: { cookie: owner.cookie },
      payload: { email: 'gina@example.com', role: 'member' },
    })
    expect(added.statusCode).toBe(201)
    expect(await t.services.metadata.db.selectFrom('mail_message').selectAll().execute()).toEqual([])
    const mail = await t.app.inject({
      method: 'GET',
      url: '/api/admin/mail',
      headers: { cookie: owner.cookie },
    })
    expect(mail.json()).toEqual({
      success: true,
      data: [],
      meta: { configured: false, pending: 0, sent: 0, failed: 0 },
    })
  })
})
