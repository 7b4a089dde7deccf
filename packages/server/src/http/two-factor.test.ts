/**
 * Two-factor sign-in over real HTTP (the app listening on loopback, `fetch` with a cookie jar) on
 * SQLite and on PostgreSQL: enrolment with the password (a TOTP URI and backup codes, on only after a
 * first right code), sign-in that gives no session until a code, single-use backup codes, the
 * authentication throttle counting wrong codes per account (the pending sign-in's user read only from a
 * genuine, unused challenge cookie), and disabling with the password. Codes
 * are computed here as an authenticator app does (`testing/totp.ts`).
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pendingTwoFactorUser } from '../auth/two-factor-challenge.js'
import { type CookieClient, type CookieClientResponse, cookieClient } from '../testing/cookie-client.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import { parseTotpUri, totpCode } from '../testing/totp.js'

const PASSWORD = 'correct horse battery staple'
const BACKUP_CODE = /^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/

interface Enrolment {
  totpURI: string
  backupCodes: string[]
}

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf)
  if (value === null || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)])
}

describe.each([
  ['SQLite', false],
  ['PostgreSQL', true],
])('two-factor sign-in on %s', (_name, postgres) => {
  let t: TestInstance
  let base: string
  let counter = 0

  beforeAll(async () => {
    t = await openTestInstance({ postgres })
    base = await t.app.listen({ port: 0, host: '127.0.0.1' })
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  const newEmail = () => `two-factor-${++counter}@example.com`
  const session = async (client: CookieClient) =>
    (await client.get('/api/auth/get-session')).json() as {
      user: { email: string; twoFactorEnabled: boolean }
    } | null
  const signIn = (client: CookieClient, email: string, password = PASSWORD) =>
    client.post('/api/auth/sign-in/email', { email, password })
  const expectStatus = (response: CookieClientResponse, status: number) => {
    expect(response.status, response.text).toBe(status)
    return response.json()
  }
  /** A signed-in account with two-factor sign-in on. */
  const enrolled = async (): Promise<{ email: string; client: CookieClient } & Enrolment> => {
    const email = newEmail()
    const client = cookieClient(base)
    expectStatus(
      await client.post('/api/auth/sign-up/email', { name: 'Ada', email, password: PASSWORD }),
      200,
    )
    const enrolment = expectStatus(
      await client.post('/api/auth/two-factor/enable', { password: PASSWORD }),
      200,
    ) as Enrolment
    expectStatus(
      await client.post('/api/auth/two-factor/verify-totp', { code: totpCode(enrolment.totpURI) }),
      200,
    )
    return { email, client, ...enrolment }
  }
  const twoFactorRows = async (userEmail: string) => {
    const { rows } = await sql<{ secret: string; backupCodes: string; verified: number | boolean | null }>`
      SELECT t."secret", t."backupCodes", t."verified" FROM "twoFactor" t
      JOIN "user" u ON u."id" = t."userId" WHERE u."email" = ${userEmail}`.execute(t.services.metadata.db)
    return rows
  }

  it('enrols with the password: a TOTP URI and ten backup codes, on only after a first right code', async () => {
    const email = newEmail()
    const client = cookieClient(base)
    expectStatus(
      await client.post('/api/auth/sign-up/email', { name: 'Grace', email, password: PASSWORD }),
      200,
    )

    expect(
      expectStatus(await client.post('/api/auth/two-factor/enable', { password: 'not my password' }), 400),
    ).toMatchObject({ code: 'INVALID_PASSWORD' })
    expect(await twoFactorRows(email)).toEqual([])

    const enrolment = expectStatus(
      await client.post('/api/auth/two-factor/enable', { password: PASSWORD }),
      200,
    ) as Enrolment
    const uri = parseTotpUri(enrolment.totpURI)
    expect(uri).toMatchObject({ issuer: 'Pathlight', label: `Pathlight:${email}`, digits: 6, period: 30 })
    expect(uri.key.length).toBeGreaterThanOrEqual(20)
    expect(enrolment.backupCodes).toHaveLength(10)
    expect(new Set(enrolment.backupCodes).size).toBe(10)
    for (const code of enrolment.backupCodes) expect(code).toMatch(BACKUP_CODE)
    // Stored encrypted: neither the secret nor a backup code is in the row in clear.
    const [row] = await twoFactorRows(email)
    expect(row?.secret).not.toContain(uri.key.toString('latin1'))
    for (const code of enrolment.backupCodes) expect(row?.backupCodes).not.toContain(code)

    // Not on yet: the password alone still signs in.
    expect((await session(client))?.user.twoFactorEnabled).toBe(false)
    const meanwhile = cookieClient(base)
    expect(expectStatus(await signIn(meanwhile, email), 200)).not.toHaveProperty('twoFactorRedirect')
    expect((await session(meanwhile))?.user.email).toBe(email)

    const wrong = await client.post('/api/auth/two-factor/verify-totp', {
      code: totpCode(enrolment.totpURI, Date.now(), 20),
    })
    expect(expectStatus(wrong, 401)).toMatchObject({ code: 'INVALID_CODE' })
    expect((await session(client))?.user.twoFactorEnabled).toBe(false)

    const confirmed = await client.post('/api/auth/two-factor/verify-totp', {
      code: totpCode(enrolment.totpURI),
    })
    expect(keysOf(expectStatus(confirmed, 200))).not.toContain('token')
    expect((await session(client))?.user.twoFactorEnabled).toBe(true)
    expect(
      expectStatus(await client.post('/api/auth/two-factor/enable', { password: PASSWORD }), 400),
    ).toMatchObject({ code: 'TOTP_ALREADY_ENABLED' })
  })

  it('signs in with the password and a code; the password alone gives no session', async () => {
    const { email, totpURI } = await enrolled()
    const browser = cookieClient(base)
    const first = await signIn(browser, email)
    expect(expectStatus(first, 200)).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp'] })
    expect([...browser.cookies().keys()]).toEqual(['better-auth.two_factor'])
    expect(await session(browser)).toBeNull()
    expect((await browser.get('/api/user/sessions')).status).toBe(401)

    const wrong = await browser.post('/api/auth/two-factor/verify-totp', {
      code: totpCode(totpURI, Date.now(), -20),
    })
    expect(expectStatus(wrong, 401)).toMatchObject({ code: 'INVALID_CODE' })
    expect(await session(browser)).toBeNull()

    const challenge = browser.cookieHeader()
    const right = await browser.post('/api/auth/two-factor/verify-totp', { code: totpCode(totpURI) })
    const answer = expectStatus(right, 200) as { user: { email: string } }
    expect(answer.user.email).toBe(email)
    expect(keysOf(answer)).not.toContain('token')
    expect([...browser.cookies().keys()]).toEqual(['better-auth.session_token'])
    expect((await session(browser))?.user).toMatchObject({ email, twoFactorEnabled: true })
    expect(expectStatus(await browser.get('/api/user/sessions'), 200)).toMatchObject({
      data: expect.arrayContaining([expect.objectContaining({ current: true })]),
    })

    // The pending sign-in was used up: its cookie cannot make a second session.
    const replayed = await fetch(`${base}/api/auth/two-factor/verify-totp`, {
      method: 'POST',
      headers: { cookie: challenge, origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ code: totpCode(totpURI) }),
    })
    expect(replayed.status).toBe(401)
    expect(
      replayed.headers
        .getSetCookie()
        .some(
          (c) => c.startsWith('better-auth.session_token=') && !c.startsWith('better-auth.session_token=;'),
        ),
    ).toBe(false)
  })

  it('signs in with a backup code, each code once', async () => {
    const { email, backupCodes } = await enrolled()
    const [firstCode = '', secondCode = ''] = backupCodes
    const first = cookieClient(base)
    expectStatus(await signIn(first, email), 200)
    const used = await first.post('/api/auth/two-factor/verify-backup-code', { code: firstCode })
    expect(keysOf(expectStatus(used, 200))).not.toContain('token')
    expect((await session(first))?.user.email).toBe(email)

    const second = cookieClient(base)
    expect(expectStatus(await signIn(second, email), 200)).toMatchObject({ twoFactorRedirect: true })
    expect(
      expectStatus(await second.post('/api/auth/two-factor/verify-backup-code', { code: firstCode }), 401),
    ).toMatchObject({ code: 'INVALID_BACKUP_CODE' })
    expect(await session(second)).toBeNull()
    expectStatus(await second.post('/api/auth/two-factor/verify-backup-code', { code: secondCode }), 200)
    expect((await session(second))?.user.email).toBe(email)
  })

  it('counts wrong codes per account and address like passwords: the sixth is refused, even a right one', async () => {
    const { email, totpURI } = await enrolled()
    const before = t.services.authThrottle.stats()
    const wrongCode = (client: CookieClient, steps: number) =>
      client.post('/api/auth/two-factor/verify-totp', { code: totpCode(totpURI, Date.now(), steps) })

    // Three wrong codes on one pending sign-in, two on another: one count for the account.
    const first = cookieClient(base)
    expectStatus(await signIn(first, email), 200)
    for (const steps of [40, 41, 42]) expect((await wrongCode(first, steps)).status).toBe(401)
    const second = cookieClient(base)
    expectStatus(await signIn(second, email), 200)
    for (const steps of [43, 44]) expect((await wrongCode(second, steps)).status).toBe(401)

    const refused = await second.post('/api/auth/two-factor/verify-totp', { code: totpCode(totpURI) })
    expect(refused.status, refused.text).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(890)
    expect(refused.json()).toMatchObject({
      error: expect.stringMatching(/^Too many failed attempts: try again in/),
    })
    expect(await session(second)).toBeNull()
    const after = t.services.authThrottle.stats()
    expect(after.failures.two_factor - before.failures.two_factor).toBe(5)
    expect(after.throttled - before.throttled).toBe(1)

    // Another account from the same address is not held up.
    const other = await enrolled()
    const browser = cookieClient(base)
    expectStatus(await signIn(browser, other.email), 200)
    expectStatus(
      await browser.post('/api/auth/two-factor/verify-totp', { code: totpCode(other.totpURI) }),
      200,
    )
    expect((await session(browser))?.user.email).toBe(other.email)
  })

  it('counts wrong codes per account whatever the spelling of the challenge cookie (quoted, repeated)', async () => {
    const { email, totpURI } = await enrolled()
    /** A code sent with the pending sign-in's cookie spelled by `spell(name, value)`. */
    const codeWith = async (
      browser: CookieClient,
      code: string,
      spell: (name: string, value: string) => string,
    ) => {
      const [name = '', value = ''] = browser.cookieHeader().split('=')
      const response = await fetch(`${base}/api/auth/two-factor/verify-totp`, {
        method: 'POST',
        headers: { cookie: spell(name, value), origin: base, 'content-type': 'application/json' },
        body: JSON.stringify({ code }),
      })
      return response.status
    }
    const quoted = (name: string, value: string) => `${name}="${value}"`
    const repeated = (name: string, value: string) => `${name}="${value}"; ${name}=not-the-challenge`
    const first = cookieClient(base)
    expectStatus(await signIn(first, email), 200)
    for (const steps of [50, 51, 52])
      expect(await codeWith(first, totpCode(totpURI, Date.now(), steps), quoted)).toBe(401)
    const second = cookieClient(base)
    expectStatus(await signIn(second, email), 200)
    for (const steps of [53, 54])
      expect(await codeWith(second, totpCode(totpURI, Date.now(), steps), repeated)).toBe(401)
    // Five wrong codes counted for the account: the right code is refused too, in any spelling.
    expect(await codeWith(second, totpCode(totpURI), quoted)).toBe(429)
    expect(await codeWith(second, totpCode(totpURI), (name, value) => `${name}=${value}`)).toBe(429)
  })

  it('names the user of a pending sign-in only from a genuine, unused challenge cookie', async () => {
    const { email, totpURI } = await enrolled()
    const browser = cookieClient(base)
    expectStatus(await signIn(browser, email), 200)
    const cookie = browser.cookieHeader()
    const pending = await pendingTwoFactorUser(t.services.auth, cookie)
    const { rows } = await sql<{ id: string }>`SELECT "id" FROM "user" WHERE "email" = ${email}`.execute(
      t.services.metadata.db,
    )
    expect(pending).toBe(rows[0]?.id)

    const [name = '', value = ''] = cookie.split('=')
    const signed = decodeURIComponent(value)
    const identifier = signed.slice(0, signed.lastIndexOf('.'))
    const forged = `${name}=${encodeURIComponent(`${identifier}.${Buffer.alloc(32).toString('base64')}`)}`
    expect(await pendingTwoFactorUser(t.services.auth, forged)).toBeUndefined()
    expect(await pendingTwoFactorUser(t.services.auth, 'other=1')).toBeUndefined()
    expect(await pendingTwoFactorUser(t.services.auth, undefined)).toBeUndefined()

    expectStatus(await browser.post('/api/auth/two-factor/verify-totp', { code: totpCode(totpURI) }), 200)
    expect(await pendingTwoFactorUser(t.services.auth, cookie)).toBeUndefined()
  })

  it('disables with the password; sign-in then needs no code', async () => {
    const { email, client } = await enrolled()
    expect(
      expectStatus(await client.post('/api/auth/two-factor/disable', { password: 'not my password' }), 400),
    ).toMatchObject({ code: 'INVALID_PASSWORD' })
    expect((await session(client))?.user.twoFactorEnabled).toBe(true)

    expect(
      expectStatus(await client.post('/api/auth/two-factor/disable', { password: PASSWORD }), 200),
    ).toEqual({
      status: true,
    })
    expect((await session(client))?.user.twoFactorEnabled).toBe(false)
    expect(await twoFactorRows(email)).toEqual([])

    const browser = cookieClient(base)
    expect(expectStatus(await signIn(browser, email), 200)).not.toHaveProperty('twoFactorRedirect')
    expect((await session(browser))?.user.email).toBe(email)
  })
})
