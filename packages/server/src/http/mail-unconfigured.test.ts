/**
 * Without SMTP_URL, every feature that would mail says so plainly and pretends nothing: password reset
 * requests answer 503 with the reason for known and unknown addresses alike, invitations are refused
 * (503, nothing stored), the direct add still adds without a notice, and the instance owner's mail
 * list says mail is not configured.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

describe('without SMTP_URL', () => {
  let t: TestInstance
  let owner: { cookie: string; userId: string }
  let organizationId: string

  beforeAll(async () => {
    t = await openTestInstance()
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

  it('adds an existing account directly without a notice, and tells the owner mail is off', async () => {
    await t.signUp('gina@example.com')
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
