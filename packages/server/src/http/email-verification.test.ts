/**
 * Address verification with a real SMTP server in this process, on SQLite and PostgreSQL: sign-up mails
 * Better Auth's verification link; until it is followed, a member's address does not count as confirmed
 * for the organization's mail: no notice of a direct add, and an e-mail report to it waits for the
 * report's own confirm link, as an outsider's. Following the link verifies the address, and the next
 * report to it is active at once. Accepting an invitation (its link was mailed there) verifies too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from '../testing/smtp-receiver.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

describe.each([
  ['SQLite', false],
  ['PostgreSQL', true],
])('address verification on %s', (_name, postgres) => {
  let t: TestInstance
  let receiver: SmtpReceiver

  beforeAll(async () => {
    receiver = await startSmtpReceiver()
    t = await openTestInstance({ postgres, env: { SMTP_URL: receiver.url, MAIL_POLL_MS: '20' } })
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    await receiver?.close()
  })

  /** The first mail to `to` with this subject, once it has arrived. */
  const mailTo = async (to: string, subject: string | RegExp): Promise<ReceivedMail> => {
    for (;;) {
      const found = receiver.received.find(
        (m) =>
          m.to[0] === to && (typeof subject === 'string' ? m.subject === subject : subject.test(m.subject)),
      )
      if (found) return found
      await receiver.waitFor(receiver.received.length + 1)
    }
  }
  const verified = async (email: string) => {
    const row = await t.services.metadata.db
      .selectFrom('user')
      .select('emailVerified')
      .where('email', '=', email)
      .executeTakeFirstOrThrow()
    return row.emailVerified === true || row.emailVerified === 1
  }

  it('counts a member as confirmed for mail only once the address is verified', async () => {
    const owner = await t.signUp(`boss-${postgres}@example.com`)
    const organizationId = await t.createOrganization(owner.cookie, 'Verified Co')
    const site = await t.createSite(owner.cookie, organizationId, 'example.com')
    const victim = `victim-${postgres}@example.com`
    await t.signUp(victim)
    const verification = await mailTo(victim, 'Verify your Pathlight address')
    const link = /(http:\/\/\S+\/api\/auth\/verify-email\?token=\S+)/.exec(verification.text)?.[1] ?? ''
    expect(link).not.toBe('')
    expect(await verified(victim)).toBe(false)

    const added = await t.app.inject({
      method: 'POST',
      url: `/api/organizations/${organizationId}/members`,
      headers: { cookie: owner.cookie },
      payload: { email: victim, role: 'member' },
    })
    expect(added.statusCode, added.body).toBe(201)
    const report = (recipients: string[]) =>
      t.app.inject({
        method: 'POST',
        url: `/api/sites/${site.siteId}/email-reports`,
        headers: { cookie: owner.cookie },
        payload: { frequency: 'weekly', recipients },
      })
    const first = await report([victim])
    expect(first.statusCode, first.body).toBe(201)
    expect(first.json().data.recipients).toEqual([{ email: victim, status: 'pending' }])
    await mailTo(victim, /^Confirm the weekly Pathlight report/)
    const queued = await t.services.metadata.db
      .selectFrom('mail_message')
      .select('kind')
      .where('recipient', '=', victim)
      .execute()
    expect(queued.map((m) => m.kind).sort()).toEqual(['email-report-confirmation', 'email-verification'])

    const url = new URL(link)
    const followed = await t.app.inject({ method: 'GET', url: url.pathname + url.search })
    expect(followed.statusCode).toBeLessThan(400)
    expect(await verified(victim)).toBe(true)
    const second = await report([victim])
    expect(second.json().data.recipients).toEqual([{ email: victim, status: 'active' }])
  })

  it('verifies the address of an account that accepts an invitation mailed to it', async () => {
    const owner = await t.signUp(`inviter-${postgres}@example.com`)
    const organizationId = await t.createOrganization(owner.cookie, 'Invited Co')
    const guest = `guest-${postgres}@example.com`
    const invited = await t.app.inject({
      method: 'POST',
      url: `/api/organizations/${organizationId}/invitations`,
      headers: { cookie: owner.cookie },
      payload: { email: guest, role: 'member' },
    })
    expect(invited.statusCode, invited.body).toBe(201)
    const mail = await mailTo(guest, /invited you to Invited Co/)
    const token = /\/invitations\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? ''
    const account = await t.signUp(guest)
    expect(await verified(guest)).toBe(false)
    const accepted = await t.app.inject({
      method: 'POST',
      url: `/api/invitations/${token}/accept`,
      headers: { cookie: account.cookie },
    })
    expect(accepted.statusCode, accepted.body).toBe(200)
    expect(await verified(guest)).toBe(true)
  })
})
