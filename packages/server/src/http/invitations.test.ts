/**
 * Invitations end to end through real HTTP on SQLite and PostgreSQL, with a real SMTP server in this
 * process and the real mail worker: the invitation mail (both parts) and its link, read, accepted by
 * the invited address only, declined, revoked, replaced, expired; who may invite whom; audited. The
 * direct add mails a notice; members leave (not the last owner). With the SMTP server down, an
 * invitation's mail waits in the outbox (visible to the instance owner) and arrives once it is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EMAIL_VERIFICATION_SUBJECT } from '../mail/templates/email-verification.js'
import { fromBool } from '../storage/metadata/schema.js'
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from '../testing/smtp-receiver.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

describe.each([
  ['SQLite', false],
  ['PostgreSQL', true],
])('invitations on %s', (_name, postgres) => {
  let t: TestInstance
  let receiver: SmtpReceiver
  let now = Date.parse('2026-06-01T09:00:00.000Z')
  let owner: { cookie: string; userId: string }
  let organizationId: string
  const base = 'http://127.0.0.1:3000'

  beforeAll(async () => {
    receiver = await startSmtpReceiver({ ignoreSubjects: [EMAIL_VERIFICATION_SUBJECT] })
    t = await openTestInstance({
      postgres,
      clock: () => now,
      env: { SMTP_URL: receiver.url, MAIL_POLL_MS: '20', MAIL_FROM: 'Acme Stats <stats@acme.example>' },
    })
    owner = await t.signUp(`owner-${postgres}@example.com`)
    organizationId = await t.createOrganization(owner.cookie, 'Acme & Sons')
  })
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })

  type Method = 'GET' | 'POST' | 'DELETE' | 'PATCH'
  /** An account whose address is verified (a directly added member is mailed a notice only then). */
  const verifiedSignUp = async (email: string) => {
    const account = await t.signUp(email)
    await t.services.metadata.db
      .updateTable('user')
      .set({ emailVerified: fromBool(true) })
      .where('id', '=', account.userId)
      .execute()
    return account
  }
  const call = (method: Method, url: string, cookie?: string, payload?: object) =>
    t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) })
  const invitations = `/api/organizations/${'$org'}/invitations`
  const orgUrl = (path: string) => path.replace('$org', organizationId)
  const invite = (email: string, role: string, cookie = owner.cookie) =>
    call('POST', orgUrl(invitations), cookie, { email, role })
  /** The next mail to arrive (the worker sends it). */
  const nextMail = async (): Promise<ReceivedMail> => {
    const all = await receiver.waitFor(receiver.received.length + 1)
    return all[all.length - 1] as ReceivedMail
  }
  const tokenOf = (mail: ReceivedMail) => {
    const link = /(http:\/\/\S+\/invitations\/([A-Za-z0-9_-]+))/.exec(mail.text)
    expect(link?.[1]?.startsWith(`${base}/invitations/`)).toBe(true)
    expect(mail.html).toContain(`href="${link?.[1]}"`)
    return link?.[2] ?? ''
  }
  const memberEmails = async () =>
    (
      (await call('GET', orgUrl('/api/organizations/$org/members'), owner.cookie)).json() as {
        data: { email: string; role: string }[]
      }
    ).data.map((m) => `${m.email}:${m.role}`)

  it('mails an invitation whose link shows the offer and lets the invited account join', async () => {
    const created = await invite('Bob@Example.com', 'admin')
    expect(created.statusCode, created.body).toBe(201)
    const invitation = (created.json() as { data: { id: string; email: string; expiresAt: string } }).data
    expect(invitation.email).toBe('bob@example.com')
    expect(invitation.expiresAt).toBe(new Date(now + 7 * 86_400_000).toISOString())

    const mail = await nextMail()
    expect(mail.to).toEqual(['bob@example.com'])
    expect(mail.headers.get('from')).toBe('Acme Stats <stats@acme.example>')
    expect(mail.subject).toBe('Test User invited you to Acme & Sons on Pathlight')
    expect(mail.text).toContain('invited you to the organization Acme & Sons as an admin.')
    expect(mail.html).toContain('Acme &amp; Sons')
    const token = tokenOf(mail)

    const listed = (await call('GET', orgUrl(invitations), owner.cookie)).json() as { data: { id: string }[] }
    expect(listed.data.map((i) => i.id)).toEqual([invitation.id])

    const offer = await call('GET', `/api/invitations/${token}`)
    expect(offer.statusCode).toBe(200)
    expect(offer.json()).toEqual({
      success: true,
      data: {
        organization: { id: organizationId, name: 'Acme & Sons' },
        email: 'bob@example.com',
        role: 'admin',
        invitedBy: 'Test User',
        expiresAt: invitation.expiresAt,
      },
    })

    expect((await call('POST', `/api/invitations/${token}/accept`)).statusCode).toBe(401)
    const carol = await t.signUp(`carol-${postgres}@example.com`)
    const wrong = await call('POST', `/api/invitations/${token}/accept`, carol.cookie)
    expect(wrong.statusCode).toBe(403)
    expect(wrong.json()).toMatchObject({ error: expect.stringContaining('bob@example.com') })

    const bob = await t.signUp('bob@example.com')
    const accepted = await call('POST', `/api/invitations/${token}/accept`, bob.cookie)
    expect(accepted.statusCode, accepted.body).toBe(200)
    expect(accepted.json()).toEqual({ success: true, data: { organizationId, role: 'admin' } })
    expect(await memberEmails()).toContain('bob@example.com:admin')
    // Bob reaches the organization's routes as an admin now.
    expect((await call('GET', orgUrl(invitations), bob.cookie)).statusCode).toBe(200)

    expect((await call('GET', `/api/invitations/${token}`)).statusCode).toBe(410)
    expect((await call('POST', `/api/invitations/${token}/accept`, bob.cookie)).statusCode).toBe(410)
    expect(
      ((await call('GET', orgUrl(invitations), owner.cookie)).json() as { data: unknown[] }).data,
    ).toEqual([])
    expect((await call('GET', '/api/invitations/not-a-token')).statusCode).toBe(404)

    const audit = (await call('GET', orgUrl('/api/organizations/$org/audit-log'), owner.cookie)).json() as {
      data: { action: string; actorUserId: string; details: { email?: string } }[]
    }
    expect(
      audit.data.filter((e) => e.action.startsWith('invitation.')).map((e) => [e.action, e.actorUserId]),
    ).toEqual([
      ['invitation.accepted', bob.userId],
      ['invitation.created', owner.userId],
    ])
  })

  it('lets the holder of the link decline it, and admins revoke it', async () => {
    await invite('dave@example.com', 'member')
    const daveToken = tokenOf(await nextMail())
    expect((await call('POST', `/api/invitations/${daveToken}/decline`)).statusCode).toBe(200)
    const declined = await call('GET', `/api/invitations/${daveToken}`)
    expect(declined.statusCode).toBe(410)
    expect(declined.json()).toMatchObject({ error: 'This invitation was already declined' })
    expect((await call('POST', `/api/invitations/${daveToken}/decline`)).statusCode).toBe(410)

    const erin = (await invite('erin@example.com', 'member')).json() as { data: { id: string } }
    const erinToken = tokenOf(await nextMail())
    const revokeUrl = orgUrl(`${invitations}/${erin.data.id}`)
    expect((await call('DELETE', revokeUrl, owner.cookie)).statusCode).toBe(200)
    expect((await call('GET', `/api/invitations/${erinToken}`)).statusCode).toBe(410)
    expect((await call('DELETE', revokeUrl, owner.cookie)).statusCode).toBe(404)
  })

  it('replaces a pending invitation when the address is invited again, and expires links after 7 days', async () => {
    await invite('frank@example.com', 'member')
    const first = tokenOf(await nextMail())
    await invite('frank@example.com', 'admin')
    const second = tokenOf(await nextMail())
    expect((await call('GET', `/api/invitations/${first}`)).statusCode).toBe(410)
    expect((await call('GET', `/api/invitations/${second}`)).json()).toMatchObject({
      data: { role: 'admin' },
    })

    const start = now
    now += 7 * 86_400_000 + 1
    try {
      const expired = await call('GET', `/api/invitations/${second}`)
      expect(expired.statusCode).toBe(410)
      expect(expired.json()).toMatchObject({ error: 'This invitation has expired' })
      expect(
        ((await call('GET', orgUrl(invitations), owner.cookie)).json() as { data: unknown[] }).data,
      ).toEqual([])
    } finally {
      now = start
    }
  })

  it('checks who invites whom and what they send', async () => {
    const memberId = await t.newMember(organizationId)
    const member = await t.signUp(`plain-${postgres}@example.com`)
    await t.services.metadata.db
      .updateTable('member')
      .set({ user_id: member.userId })
      .where('user_id', '=', memberId)
      .execute()
    expect((await invite('x@example.com', 'member', member.cookie)).statusCode).toBe(403)
    const admin = await verifiedSignUp(`admin-${postgres}@example.com`)
    const added = await call('POST', orgUrl('/api/organizations/$org/members'), owner.cookie, {
      email: `admin-${postgres}@example.com`,
      role: 'admin',
    })
    expect(added.statusCode).toBe(201)
    await nextMail() // the notice of the direct add
    const ownerByAdmin = await invite('y@example.com', 'owner', admin.cookie)
    expect(ownerByAdmin.statusCode).toBe(403)
    expect((await invite('y@example.com', 'member', admin.cookie)).statusCode).toBe(201)
    await nextMail()
    const stranger = await t.signUp(`stranger-${postgres}@example.com`)
    expect((await invite('z@example.com', 'member', stranger.cookie)).statusCode).toBe(404)
    expect((await invite(`owner-${postgres}@example.com`, 'member')).statusCode).toBe(409)

    const badEmail = await invite('not-an-address', 'member')
    expect(badEmail.statusCode).toBe(400)
    expect(badEmail.json()).toMatchObject({ error: expect.stringMatching(/^Invalid invitation: email/) })
    const badRole = await invite('ok@example.com', 'boss')
    expect(badRole.statusCode).toBe(400)
    expect(badRole.json()).toMatchObject({ error: expect.stringMatching(/^Invalid invitation: role/) })
    const extra = await call('POST', orgUrl(invitations), owner.cookie, {
      email: 'ok@example.com',
      role: 'member',
      x: 1,
    })
    expect(extra.statusCode).toBe(400)
  })

  it("revokes an inviter's invitations beyond what they may still grant when they are removed or demoted", async () => {
    const member = (email: string, role: string) =>
      call('POST', orgUrl('/api/organizations/$org/members'), owner.cookie, { email, role })
    const admin = await verifiedSignUp(`inviting-admin-${postgres}@example.com`)
    expect((await member(`inviting-admin-${postgres}@example.com`, 'admin')).statusCode).toBe(201)
    await nextMail()
    const coOwner = await verifiedSignUp(`co-owner-${postgres}@example.com`)
    expect((await member(`co-owner-${postgres}@example.com`, 'owner')).statusCode).toBe(201)
    await nextMail()

    expect((await invite(`alt-${postgres}@example.com`, 'admin', admin.cookie)).statusCode).toBe(201)
    const altToken = tokenOf(await nextMail())
    const before = receiver.received.length
    const ownerInvite = await invite(`heir-${postgres}@example.com`, 'owner', coOwner.cookie)
    const adminInvite = await invite(`deputy-${postgres}@example.com`, 'admin', coOwner.cookie)
    await receiver.waitFor(before + 2)
    const ids = (r: typeof ownerInvite) => (r.json() as { data: { id: string } }).data.id

    // The co-owner becomes an admin: the owner invitation goes, the admin one stays.
    const demoted = await call(
      'PATCH',
      orgUrl(`/api/organizations/$org/members/${coOwner.userId}`),
      owner.cookie,
      {
        role: 'admin',
      },
    )
    expect(demoted.statusCode, demoted.body).toBe(200)
    const pending = () =>
      call('GET', orgUrl(invitations), owner.cookie).then(
        (r) => (r.json() as { data: { id: string; email: string }[] }).data,
      )
    expect((await pending()).map((i) => i.id)).not.toContain(ids(ownerInvite))
    expect((await pending()).map((i) => i.id)).toContain(ids(adminInvite))

    // The admin is removed: their invitation is revoked before alt accepts it.
    const removed = await call(
      'DELETE',
      orgUrl(`/api/organizations/$org/members/${admin.userId}`),
      owner.cookie,
    )
    expect(removed.statusCode).toBe(200)
    const alt = await t.signUp(`alt-${postgres}@example.com`)
    const accepted = await call('POST', `/api/invitations/${altToken}/accept`, alt.cookie)
    expect(accepted.statusCode).toBe(410)
    expect(await memberEmails()).not.toContain(`alt-${postgres}@example.com:admin`)

    const audit = (await call('GET', orgUrl('/api/organizations/$org/audit-log'), owner.cookie)).json() as {
      data: { action: string; actorUserId: string; details: Record<string, unknown> }[]
    }
    const revoked = audit.data.filter((e) => e.action === 'invitation.revoked' && e.details.reason)
    expect(
      revoked.map((e) => [e.details.email, e.details.role, e.details.reason, e.actorUserId]).sort(),
    ).toEqual(
      [
        [`alt-${postgres}@example.com`, 'admin', 'inviter_removed', owner.userId],
        [`heir-${postgres}@example.com`, 'owner', 'inviter_role_changed', owner.userId],
      ].sort(),
    )
  })

  it('refuses a sixth invitation mail to one address in 24 hours, naming the address', async () => {
    const email = `often-${postgres}@example.com`
    const before = receiver.received.length
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) statuses.push((await invite(email, 'member')).statusCode)
    expect(statuses).toEqual([201, 201, 201, 201, 201])
    const refused = await invite(email, 'member')
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toMatchObject({
      error: `Too many invitation and confirmation mails to ${email}: at most 5 in 24 hours`,
    })
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    await receiver.waitFor(before + 5)
    const queued = await t.services.metadata.db
      .selectFrom('mail_message')
      .select('id')
      .where('recipient', '=', email)
      .execute()
    expect(queued).toHaveLength(5)
  })

  it('mails the notice of a direct add, and lets members leave but not the last owner', async () => {
    const gina = await verifiedSignUp(`gina-${postgres}@example.com`)
    const added = await call('POST', orgUrl('/api/organizations/$org/members'), owner.cookie, {
      email: `gina-${postgres}@example.com`,
      role: 'member',
    })
    expect(added.statusCode).toBe(201)
    const notice = await nextMail()
    expect(notice.to).toEqual([`gina-${postgres}@example.com`])
    expect(notice.subject).toBe('You were added to Acme & Sons on Pathlight')
    expect(notice.text).toContain(
      'Test User added your account to the organization Acme & Sons with the role member.',
    )
    expect(notice.text).toContain(`Open Pathlight: ${base}`)

    const leave = (cookie: string) => call('DELETE', orgUrl('/api/organizations/$org/members/me'), cookie)
    expect((await leave(gina.cookie)).statusCode).toBe(200)
    expect(await memberEmails()).not.toContain(`gina-${postgres}@example.com:member`)
    expect((await leave(gina.cookie)).statusCode).toBe(404)
    const last = await leave(owner.cookie)
    expect(last.statusCode).toBe(409)
    expect(await memberEmails()).toContain(`owner-${postgres}@example.com:owner`)
  })

  it('lets the instance owner send a failed message again', async () => {
    receiver.rejecting.add('ivy@example.com')
    expect((await invite('ivy@example.com', 'member')).statusCode).toBe(201)
    const failed = async () =>
      (
        (await call('GET', '/api/admin/mail?status=failed', owner.cookie)).json() as {
          data: { id: string; to: string; lastError: string | null }[]
        }
      ).data.filter((m) => m.to === 'ivy@example.com')
    let seen = await failed()
    while (seen.length === 0) seen = await failed() // the worker's first attempt: a 550
    expect(seen[0]?.lastError).toMatch(/550/)
    const id = seen[0]?.id ?? ''

    receiver.rejecting.delete('ivy@example.com')
    const retried = await call('POST', `/api/admin/mail/${id}/retry`, owner.cookie)
    expect(retried.statusCode, retried.body).toBe(200)
    expect(retried.json()).toMatchObject({ data: { id, status: 'pending', attempts: 0 } })
    const mail = await nextMail()
    expect(mail.to).toEqual(['ivy@example.com'])
    expect((await call('POST', `/api/admin/mail/${id}/retry`, owner.cookie)).statusCode).toBe(409)
    expect((await call('POST', '/api/admin/mail/no-such-message/retry', owner.cookie)).statusCode).toBe(404)
  })

  it('keeps an invitation mail while the SMTP server is down and delivers it once it is back', async () => {
    const outsider = await t.signUp()
    // The sign-ups' verification mails (queued by Better Auth at the wall clock's time, not this test's)
    // are not what this test follows.
    await t.services.metadata.db.deleteFrom('mail_message').where('kind', '=', 'email-verification').execute()
    const before = receiver.received.length
    await receiver.down()
    expect((await invite('hal@example.com', 'member')).statusCode).toBe(201)
    const pending = async () =>
      (await call('GET', '/api/admin/mail?status=pending', owner.cookie)).json() as {
        data: { to: string; attempts: number; lastError: string | null }[]
        meta: { configured: boolean; pending: number; failed: number }
      }
    // The worker tries (and fails) within a few polls; the owner sees the message and the error.
    let seen = await pending()
    while (seen.data[0]?.attempts !== 1) seen = await pending()
    expect(seen.meta).toMatchObject({ configured: true, pending: 1, failed: 0 })
    expect(seen.data[0]).toMatchObject({
      to: 'hal@example.com',
      lastError: expect.stringMatching(/ECONNREFUSED/),
    })
    expect((await call('GET', '/api/admin/mail', outsider.cookie)).statusCode).toBe(403)

    await receiver.up()
    now += 2 * 60_000 // past the first retry (1 minute ± 20 %)
    const mail = await nextMail()
    expect(mail.to).toEqual(['hal@example.com'])
    expect(receiver.received.length).toBe(before + 1)
    // The worker records the send right after the SMTP server took the message.
    let after = await pending()
    while (after.meta.pending !== 0) after = await pending()
    expect(after.meta).toMatchObject({ pending: 0, failed: 0 })
  })
})
