/**
 * What Better Auth's routes answer through Pathlight, over real HTTP on SQLite and on PostgreSQL: no
 * answer carries a session token (sign-up, sign-in, `get-session`, `list-sessions`, Better Auth's
 * `change-password`, `GET /api/user/sessions`), while revoking a listed session still works; display
 * names are at most 200 characters at sign-up and `update-user`, a longer one is a 400 naming `name`;
 * and the metadata migrations leave Better Auth's own migration planner nothing to add.
 */
import { getMigrations } from 'better-auth/db/migration'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CookieClient, type CookieClientResponse, cookieClient } from '../testing/cookie-client.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const PASSWORD = 'correct horse battery staple'

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf)
  if (value === null || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)])
}

/** The session token in a client's session cookie (`<token>.<signature>`, URL-encoded). */
function tokenOf(client: CookieClient): string {
  const cookie = decodeURIComponent(client.cookies().get('better-auth.session_token') ?? '')
  const token = cookie.slice(0, cookie.lastIndexOf('.'))
  expect(token.length).toBeGreaterThanOrEqual(32)
  return token
}

describe.each([
  ['SQLite', false],
  ['PostgreSQL', true],
])('Better Auth answers on %s', (_name, postgres) => {
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

  const newEmail = () => `answers-${++counter}@example.com`
  const signUp = (client: CookieClient, name: string, email = newEmail()) =>
    client.post('/api/auth/sign-up/email', { name, email, password: PASSWORD })
  const expectStatus = (response: CookieClientResponse, status: number) => {
    expect(response.status, response.text.slice(0, 500)).toBe(status)
    return response.json()
  }
  /** The answer has no `token` key and does not hold any of `tokens`. */
  const expectNoToken = (response: CookieClientResponse, tokens: string[]) => {
    expect(keysOf(response.json())).not.toContain('token')
    for (const token of tokens) expect(response.text).not.toContain(token)
  }

  it('answers no session token from sign-up, sign-in or any session list', async () => {
    const email = newEmail()
    const first = cookieClient(base)
    const signedUp = await signUp(first, 'Lin', email)
    expectStatus(signedUp, 200)
    const second = cookieClient(base)
    const signedIn = await second.post('/api/auth/sign-in/email', { email, password: PASSWORD })
    expectStatus(signedIn, 200)
    const tokens = [tokenOf(first), tokenOf(second)]
    expectNoToken(signedUp, tokens)
    expectNoToken(signedIn, tokens)

    const current = await first.get('/api/auth/get-session')
    expect(expectStatus(current, 200)).toMatchObject({ user: { email }, session: { id: expect.any(String) } })
    expectNoToken(current, tokens)

    const listed = await first.get('/api/auth/list-sessions')
    const sessions = expectStatus(listed, 200) as { id: string; userId: string; expiresAt: string }[]
    expect(sessions).toHaveLength(2)
    for (const session of sessions)
      expect(session).toMatchObject({ id: expect.any(String), expiresAt: expect.any(String) })
    expectNoToken(listed, tokens)

    const own = await first.get('/api/user/sessions')
    const ownSessions = (expectStatus(own, 200) as { data: { id: string; current: boolean }[] }).data
    expect(ownSessions.map((s) => s.id).sort()).toEqual(sessions.map((s) => s.id).sort())
    expectNoToken(own, tokens)

    // The dashboard's revoke still works without the client ever holding the other token.
    const other = ownSessions.find((s) => !s.current)
    expectStatus(await first.request('DELETE', `/api/user/sessions/${other?.id}`), 200)
    expect((await second.get('/api/auth/get-session')).json()).toBeNull()

    // Better Auth's change-password answers its new session without the token too.
    const changed = await first.post('/api/auth/change-password', {
      currentPassword: PASSWORD,
      newPassword: `${PASSWORD}!`,
    })
    expectStatus(changed, 200)
    expectNoToken(changed, [...tokens, tokenOf(first)])
  })

  it('takes a name of 200 characters and refuses 201 (or 900,000) at sign-up with a 400 naming name', async () => {
    const longest = 'é'.repeat(200)
    const client = cookieClient(base)
    expect(expectStatus(await signUp(client, longest), 200)).toMatchObject({ user: { name: longest } })

    for (const name of ['n'.repeat(201), 'n'.repeat(900_000)]) {
      const email = newEmail()
      const refused = await signUp(cookieClient(base), name, email)
      expect(expectStatus(refused, 400)).toEqual({
        code: 'INVALID_NAME',
        message: 'name must be at most 200 characters',
      })
      const signIn = await cookieClient(base).post('/api/auth/sign-in/email', { email, password: PASSWORD })
      expect(signIn.status).toBe(401)
    }
    const nul = await signUp(cookieClient(base), 'Ada\u0000Lovelace')
    expect(expectStatus(nul, 400)).toEqual({
      code: 'INVALID_NAME',
      message: 'name must not contain NUL characters',
    })
  })

  it('refuses an image over 2,048 characters at update-user, keeping the old one', async () => {
    const client = cookieClient(base)
    expectStatus(await signUp(client, 'Pictured'), 200)
    const picture = `https://example.com/${'p'.repeat(2000)}`
    expectStatus(await client.post('/api/auth/update-user', { image: picture }), 200)
    const refused = await client.post('/api/auth/update-user', {
      image: `data:image/png;base64,${'A'.repeat(900_000)}`,
    })
    expect(expectStatus(refused, 400)).toEqual({
      code: 'INVALID_IMAGE',
      message: 'image must be at most 2048 characters',
    })
    expect((await client.get('/api/auth/get-session')).json()).toMatchObject({ user: { image: picture } })
  })

  it('refuses a name over 200 characters at update-user, keeping the old one', async () => {
    const client = cookieClient(base)
    expectStatus(await signUp(client, 'Before'), 200)
    const refused = await client.post('/api/auth/update-user', { name: 'x'.repeat(201) })
    expect(expectStatus(refused, 400)).toEqual({
      code: 'INVALID_NAME',
      message: 'name must be at most 200 characters',
    })
    expect(expectStatus(await client.post('/api/auth/update-user', { name: 42 }), 400)).toMatchObject({
      code: 'INVALID_NAME',
      message: 'name must be a string',
    })
    expect((await client.get('/api/auth/get-session')).json()).toMatchObject({ user: { name: 'Before' } })

    expectStatus(await client.post('/api/auth/update-user', { name: 'After' }), 200)
    expect((await client.get('/api/auth/get-session')).json()).toMatchObject({ user: { name: 'After' } })
  })

  it("leaves Better Auth's migration planner nothing to create or add", async () => {
    const { toBeCreated, toBeAdded } = await getMigrations(t.services.auth.options)
    expect({ toBeCreated, toBeAdded }).toEqual({ toBeCreated: [], toBeAdded: [] })
  })
})
