/**
 * Password reset end to end through real HTTP, with a real SMTP server in this process: the same
 * answer for a known and an unknown address, one mail (both parts) to the known one, its link through
 * Better Auth's callback to the dashboard's page, the new password set, every session ended, the token
 * used once; requests throttled per address; the operator's one-time link (`pathlight reset-password`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resetPasswordLink } from '../cli/reset-password.js'
import { EMAIL_VERIFICATION_SUBJECT } from '../mail/templates/email-verification.js'
import { type SmtpReceiver, startSmtpReceiver } from '../testing/smtp-receiver.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

describe.each([
  ['SQLite', false],
  ['PostgreSQL', true],
])('password reset on %s', (_name, postgres) => {
  let t: TestInstance
  let receiver: SmtpReceiver
  const base = 'http://127.0.0.1:3000'

  beforeAll(async () => {
    receiver = await startSmtpReceiver({ ignoreSubjects: [EMAIL_VERIFICATION_SUBJECT] })
    t = await openTestInstance({ postgres, env: { SMTP_URL: receiver.url, MAIL_POLL_MS: '20' } })
  })
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })

  const post = (url: string, payload: object, cookie?: string) =>
    t.app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {} })
  const signIn = (email: string, password: string) => post('/api/auth/sign-in/email', { email, password })
  const sessionOf = async (cookie: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } })).json() as {
      user: { id: string }
    } | null

  /** Follow a mailed link through Better Auth's callback: the dashboard page's token. */
  const tokenFrom = async (link: string) => {
    const url = new URL(link)
    expect(url.origin).toBe(base)
    const callback = await t.app.inject({ method: 'GET', url: url.pathname + url.search })
    expect(callback.statusCode).toBe(302)
    const target = new URL(String(callback.headers.location))
    expect(`${target.origin}${target.pathname}`).toBe(`${base}/reset-password`)
    return target.searchParams.get('token') ?? ''
  }

  it('answers known and unknown addresses alike, mails the known one a link that sets the password once', async () => {
    const email = `reset-${postgres}@example.com`
    const { cookie } = await t.signUp(email)
    const second = await signIn(email, 'correct horse battery staple')
    const secondCookie = String(second.headers['set-cookie']).split(';')[0] ?? ''
    expect(await sessionOf(secondCookie)).not.toBeNull()

    const known = await post('/api/auth/request-password-reset', { email })
    const unknown = await post('/api/auth/request-password-reset', {
      email: `nobody-${postgres}@example.com`,
    })
    expect(known.statusCode).toBe(200)
    expect(unknown.statusCode).toBe(known.statusCode)
    expect(unknown.body).toBe(known.body)

    const [mail] = await receiver.waitFor(1)
    expect(mail?.to).toEqual([email])
    expect(mail?.subject).toBe('Reset your Pathlight password')
    const link = /(http:\/\/\S+\/api\/auth\/reset-password\/\S+)/.exec(mail?.text ?? '')?.[1] ?? ''
    expect(link).not.toBe('')
    // The HTML part carries the same link (attribute-escaped).
    expect(mail?.html).toContain(`href="${link.replaceAll('&', '&amp;')}"`)
    const queued = await t.services.metadata.db
      .selectFrom('mail_message')
      .select('recipient')
      .where('kind', '=', 'password-reset')
      .execute()
    expect(queued).toEqual([{ recipient: email }])

    const token = await tokenFrom(link)
    expect(token.length).toBeGreaterThan(10)
    const reset = await post('/api/auth/reset-password', { newPassword: 'a brand new passphrase', token })
    expect(reset.statusCode, reset.body).toBe(200)

    expect(await sessionOf(cookie)).toBeNull()
    expect(await sessionOf(secondCookie)).toBeNull()
    expect((await signIn(email, 'correct horse battery staple')).statusCode).toBe(401)
    expect((await signIn(email, 'a brand new passphrase')).statusCode).toBe(200)
    const again = await post('/api/auth/reset-password', { newPassword: 'yet another passphrase', token })
    expect(again.statusCode).toBe(400)
  })

  it('a reset voids every other outstanding reset link of the account', async () => {
    const email = `two-links-${postgres}@example.com`
    await t.signUp(email)
    const before = receiver.received.length
    for (let i = 0; i < 2; i++) {
      expect((await post('/api/auth/request-password-reset', { email })).statusCode).toBe(200)
    }
    const mails = (await receiver.waitFor(before + 2)).slice(before)
    const links = mails.map((m) => /(http:\/\/\S+\/api\/auth\/reset-password\/\S+)/.exec(m.text)?.[1] ?? '')
    const [older = '', newer = ''] = await Promise.all(links.map(tokenFrom))
    expect(older).not.toBe(newer)
    const reset = await post('/api/auth/reset-password', {
      newPassword: 'the second link set it',
      token: newer,
    })
    expect(reset.statusCode, reset.body).toBe(200)
    const stale = await post('/api/auth/reset-password', {
      newPassword: 'the first link tries',
      token: older,
    })
    expect(stale.statusCode).toBe(400)
    expect((await signIn(email, 'the first link tries')).statusCode).toBe(401)
    expect((await signIn(email, 'the second link set it')).statusCode).toBe(200)
  })

  it('counts reset requests in their own budget: they never lock the right password', async () => {
    const email = `locked-${postgres}@example.com`
    await t.signUp(email)
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) {
      statuses.push((await post('/api/auth/request-password-reset', { email })).statusCode)
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
    expect((await signIn(email, 'correct horse battery staple')).statusCode).toBe(200)
    expect(t.services.authThrottle.stats().failures.password_reset).toBeGreaterThanOrEqual(5)
  })

  it('throttles reset requests per address like sign-in (every request counts)', async () => {
    const email = `flood-${postgres}@example.com`
    const statuses: number[] = []
    for (let i = 0; i < 7; i++) {
      statuses.push((await post('/api/auth/request-password-reset', { email })).statusCode)
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429])
  })

  it('gives operators a one-time link that resets the password without mail', async () => {
    const email = `operator-${postgres}@example.com`
    await t.signUp(email)
    const link = await resetPasswordLink(
      { auth: t.services.auth, db: t.services.metadata.db, baseUrl: t.services.config.baseUrl },
      email.toUpperCase(),
    )
    const token = await tokenFrom(link)
    expect(
      (await post('/api/auth/reset-password', { newPassword: 'set by the operator', token })).statusCode,
    ).toBe(200)
    expect((await signIn(email, 'set by the operator')).statusCode).toBe(200)
    await expect(
      resetPasswordLink(
        { auth: t.services.auth, db: t.services.metadata.db, baseUrl: t.services.config.baseUrl },
        'missing@example.com',
      ),
    ).rejects.toThrow('No account with the address missing@example.com')
  })
})
