/**
 * Test support: a real OpenID Connect provider (the `oidc-provider` package) on a loopback port, with
 * users whose groups a test changes between sign-ins, two clients (Pathlight's, secret sent as
 * `client_secret_basic`, and a second one), its own development login page (any password is accepted
 * for a known user), consent granted without a page, and RP-initiated logout.
 *
 * It stands behind a small reverse proxy (the issuer's address) that can tamper with the ID token of
 * the next token answers, as a hostile network or a broken provider would: `signedBy: 'other-key'`
 * re-signs it with a key the provider never published (same `kid`), `expired` re-signs it with the
 * provider's own key and an `exp` an hour ago; `state` replaces the `state` of the redirect back to the
 * client (as a forged or mixed-up callback carries). `down()` stops the proxy listening, so connections are refused.
 */
import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'

export interface TestOidcUser {
  email: string
  name: string
  groups: string[]
  emailVerified?: boolean
}

export interface TestOidcClient {
  clientId: string
  clientSecret: string
  redirectUris: string[]
  postLogoutRedirectUris?: string[]
}

export type IdTokenTamper = 'other-key' | 'expired' | 'state'

export interface TestOidcProvider {
  /** The issuer URL (no trailing slash). */
  issuer: string
  /** Users by login (the login page's first field; it is also the `sub`). */
  users: Map<string, TestOidcUser>
  /** Tamper with the answers (see the module comment) until set back to undefined. */
  tamper: IdTokenTamper | undefined
  /** How many token requests the provider answered, and how many of those were errors. */
  tokenRequests: { ok: number; refused: number }
  /** Stop listening (connections are refused) until `up()`, on the same port. */
  down(): Promise<void>
  up(): Promise<void>
  close(): Promise<void>
}

const b64url = (value: Buffer | string) => Buffer.from(value).toString('base64url')

/** Sign a JWT payload RS256 with `key` under `kid`. */
function signJwt(payload: Record<string, unknown>, key: crypto.KeyObject, kid: string): string {
  const head = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }))
  const body = b64url(JSON.stringify(payload))
  const signature = crypto.sign('sha256', Buffer.from(`${head}.${body}`), key)
  return `${head}.${body}.${b64url(signature)}`
}

/** Start the provider. @param clients its clients (Pathlight's first) */
export async function startOidcProvider(clients: TestOidcClient[]): Promise<TestOidcProvider> {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
  const { privateKey: otherKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
  const kid = 'test-key-1'
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' }

  const front = http.createServer()
  let isDown = false
  const sockets = new Set<import('node:net').Socket>()
  front.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  const frontPort = (front.address() as AddressInfo).port
  const issuer = `http://127.0.0.1:${frontPort}`

  const users = new Map<string, TestOidcUser>()
  const provider = new Provider(issuer, {
    clients: clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: c.redirectUris,
      post_logout_redirect_uris: c.postLogoutRedirectUris ?? [],
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code'],
      response_types: ['code'],
    })),
    jwks: { keys: [jwk as never] },
    cookies: { keys: [crypto.randomBytes(16).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    // Every claim of the granted scopes in the ID token, as Keycloak's and Entra ID's group claims are.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    findAccount: async (_ctx, id) => {
      const user = users.get(id)
      if (!user) return undefined
      return {
        accountId: id,
        claims: async () => ({
          sub: id,
          email: user.email,
          email_verified: user.emailVerified ?? true,
          name: user.name,
          groups: [...user.groups],
        }),
      }
    },
    // Consent without a page: the grant of the requested scopes is made when first needed.
    loadExistingGrant: async (ctx) => {
      const oidc = ctx.oidc
      if (!oidc.client || !oidc.session?.accountId) return undefined
      const existing = oidc.session.grantIdFor(oidc.client.clientId)
      if (existing) return oidc.provider.Grant.find(existing)
      const grant = new oidc.provider.Grant({
        clientId: oidc.client.clientId,
        accountId: oidc.session.accountId,
      })
      grant.addOIDCScope('openid email profile')
      await grant.save()
      return grant
    },
  })
  const back = http.createServer(provider.callback())
  await new Promise<void>((resolve) => back.listen(0, '127.0.0.1', resolve))
  const backPort = (back.address() as AddressInfo).port

  const state: TestOidcProvider = {
    issuer,
    users,
    tamper: undefined,
    tokenRequests: { ok: 0, refused: 0 },
    async down() {
      if (isDown) return
      isDown = true
      const closed = new Promise((resolve) => front.close(resolve))
      for (const socket of sockets) socket.destroy()
      await closed
    },
    async up() {
      if (!isDown) return
      await new Promise<void>((resolve) => front.listen(frontPort, '127.0.0.1', resolve))
      isDown = false
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await Promise.all([
        isDown ? undefined : new Promise((resolve) => front.close(resolve)),
        new Promise((resolve) => {
          back.closeAllConnections()
          back.close(resolve)
        }),
      ])
    },
  }

  front.on('request', (req, res) => {
    const upstream = http.request(
      { host: '127.0.0.1', port: backPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        const isToken = req.url?.startsWith('/token') ?? false
        if (!isToken) {
          const location = answer.headers.location
          if (state.tamper === 'state' && location?.includes('state=')) {
            const url = new URL(location)
            url.searchParams.set('state', 'not-the-state-that-was-sent')
            answer.headers.location = url.href
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
          return
        }
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () => {
          let body = Buffer.concat(chunks)
          if ((answer.statusCode ?? 500) < 300) state.tokenRequests.ok++
          else state.tokenRequests.refused++
          if (state.tamper && (answer.statusCode ?? 500) < 300) {
            const json = JSON.parse(body.toString('utf8')) as { id_token?: string }
            if (json.id_token) {
              const payload = JSON.parse(
                Buffer.from(json.id_token.split('.')[1] ?? '', 'base64url').toString(),
              )
              const now = Math.floor(Date.now() / 1000)
              json.id_token =
                state.tamper === 'other-key'
                  ? signJwt(payload, otherKey, kid)
                  : signJwt({ ...payload, iat: now - 7200, exp: now - 3600 }, privateKey, kid)
              body = Buffer.from(JSON.stringify(json))
            }
          }
          const headers = { ...answer.headers, 'content-length': String(body.length) }
          res.writeHead(answer.statusCode ?? 502, headers)
          res.end(body)
        })
      },
    )
    upstream.on('error', () => {
      res.writeHead(502).end()
    })
    req.pipe(upstream)
  })
  return state
}
