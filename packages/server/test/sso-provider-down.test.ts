/**
 * Single sign-on when the identity provider cannot be reached, and the sign-in throttle over the OAuth
 * callback, against the real server (SQLite + chDB, `inject`) and a real OpenID provider
 * (`testing/oidc-test-provider.ts`) that is down when the server starts: starting SSO answers 503 naming
 * the provider (not a 500); once the provider is back, the next attempt finds it (discovery is tried
 * again) and answers its authorization URL. Failed callbacks count against the client address like
 * failed sign-ins: beyond AUTH_THROTTLE_ADDRESS_MAX they answer 429 without reaching Better Auth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOidcProvider, type TestOidcProvider } from '../src/testing/oidc-test-provider.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

let t: TestInstance
let idp: TestOidcProvider
const base = 'http://127.0.0.1:3999'

beforeAll(async () => {
  idp = await startOidcProvider([
    { clientId: 'pathlight', clientSecret: 'secret', redirectUris: [`${base}/api/auth/callback/oidc`] },
  ])
  await idp.down()
  t = await openTestInstance({
    env: {
      BASE_URL: base,
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: 'pathlight',
      OIDC_CLIENT_SECRET: 'secret',
      AUTH_THROTTLE_ADDRESS_MAX: '3',
    },
  })
}, 120_000)

afterAll(async () => {
  await t?.close()
  await idp?.close()
})

const startSso = () =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/social',
    headers: { origin: base },
    payload: { provider: 'oidc', callbackURL: '/', errorCallbackURL: '/sign-in', disableRedirect: true },
  })

describe('single sign-on with the provider down', () => {
  it('answers 503 naming the provider, then finds it once it is back', async () => {
    const down = await startSso()
    expect(down.statusCode).toBe(503)
    expect(down.json()).toMatchObject({
      code: 'SSO_PROVIDER_UNAVAILABLE',
      message: expect.stringContaining(idp.issuer),
    })
    await idp.up()
    const up = await startSso()
    expect(up.statusCode).toBe(200)
    const url = new URL(up.json<{ url: string }>().url)
    expect(url.origin).toBe(idp.issuer)
    expect(url.searchParams.get('client_id')).toBe('pathlight')
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('nonce')).toBeTruthy()
    expect(url.searchParams.get('state')).toBeTruthy()
  })

  it('throttles failed callbacks by client address', async () => {
    const callback = () =>
      t.app.inject({ method: 'GET', url: '/api/auth/callback/oidc?code=guess&state=guess' })
    const answers = []
    for (let i = 0; i < 4; i++) answers.push(await callback())
    for (const answer of answers.slice(0, 3)) {
      expect(answer.statusCode).toBe(302)
      expect(new URL(answer.headers.location as string).pathname).toBe('/sign-in')
      expect(new URL(answer.headers.location as string).searchParams.get('error')).toBeTruthy()
    }
    expect(answers[3]?.statusCode).toBe(429)
    expect(Number(answers[3]?.headers['retry-after'])).toBeGreaterThan(0)
  })
})
