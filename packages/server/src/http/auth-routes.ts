/**
 * Mounts Better Auth at `/api/auth/*`: the Fastify request becomes a WHATWG Request, Better Auth's
 * Response is copied back (status, headers including Set-Cookie, body). Sign-in, sign-up, the
 * password endpoints and two-factor codes go through the authentication throttle first
 * (`auth/auth-throttle.ts`), and so do single sign-on callbacks (`GET /api/auth/callback/*`, by address): beyond its limits they answer 429 with `Retry-After` and Better Auth is
 * not asked. No answer carries a session token: a session is the cookie's alone, so every `token` key
 * of a JSON answer (sign-in's and sign-up's, `get-session`'s, each of `list-sessions`', the two-factor
 * verifications') is removed before it is sent.
 */
import { doc } from '@pathlight/protocol'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { AuthAction, AuthThrottle } from '../auth/auth-throttle.js'
import type { Auth } from '../auth/better-auth.js'
import { pendingTwoFactorUser } from '../auth/two-factor-challenge.js'
import { badRequest, tooManyAttempts } from '../shared/errors.js'
import { toHeaders } from './caller.js'
import { anyJson } from './openapi/doc-parts.js'
import { json } from './openapi/route-doc.js'

/** Better Auth's sign-up, sign-in and two-factor bodies (the main `POST /api/auth/*` calls). */
export const authBody = z.union([
  doc(
    z.object({
      name: doc(z.string().max(200), 'At most 200 characters (also for `update-user`)'),
      email: z.string(),
      password: doc(z.string().min(8).max(256), '8 to 256 characters'),
    }),
    { title: 'sign-up/email' },
  ),
  doc(z.object({ email: z.string(), password: z.string() }), { title: 'sign-in/email' }),
  doc(z.object({ password: z.string() }), { title: 'two-factor/enable, two-factor/disable' }),
  doc(z.object({ code: doc(z.string(), "The authenticator app's 6 digits, or one backup code") }), {
    title: 'two-factor/verify-totp, two-factor/verify-backup-code',
  }),
])

/** Better Auth paths (after `/api/auth`) that are throttled, and the action each counts as. */
export const THROTTLED_AUTH_PATHS: Readonly<Record<string, AuthAction>> = {
  '/sign-in/email': 'sign_in',
  '/sign-up/email': 'sign_up',
  '/change-password': 'password',
  '/change-email': 'password',
  '/delete-user': 'password',
  '/verify-password': 'password',
  '/request-password-reset': 'password_reset',
  '/reset-password': 'password_reset',
  '/send-verification-email': 'password_reset',
  '/two-factor/enable': 'password',
  '/two-factor/disable': 'password',
  '/two-factor/get-totp-uri': 'password',
  '/two-factor/generate-backup-codes': 'password',
  '/two-factor/verify-totp': 'two_factor',
  '/two-factor/verify-backup-code': 'two_factor',
  '/two-factor/verify-otp': 'two_factor',
}

export interface AuthRouteOptions {
  auth: Auth
  baseUrl: string
  throttle: AuthThrottle
}

export async function authRoutes(app: FastifyInstance, { auth, baseUrl, throttle }: AuthRouteOptions) {
  // OAuth clients post form bodies to the token endpoint (RFC 6749): passed on to Better Auth as forms.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      done(null, new URLSearchParams(String(body)))
    },
  )
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const url = new URL(request.url, baseUrl)
    const form = request.body instanceof URLSearchParams ? request.body.toString() : undefined
    const body = request.method === 'GET' ? undefined : (form ?? reserialize(request.body))
    const headers = toHeaders(request)
    if (body !== undefined) {
      headers.set(
        'content-type',
        form === undefined ? 'application/json' : 'application/x-www-form-urlencoded',
      )
    }
    // An OAuth callback (single sign-on) counts as a sign-in by its address: a failed one is a redirect
    // to the error page.
    const callback = request.method === 'GET' && url.pathname.startsWith('/api/auth/callback/')
    const action = callback
      ? 'sign_in'
      : request.method === 'POST'
        ? THROTTLED_AUTH_PATHS[url.pathname.slice('/api/auth'.length)]
        : undefined
    const attempt = action
      ? await throttle.begin({
          action,
          account: callback ? undefined : await accountOf(request, auth, action),
          address: request.ip,
        })
      : undefined
    if (attempt && !attempt.allowed) throw tooManyAttempts(attempt.retryAfterSeconds)

    let response: Response
    try {
      response = await auth.handler(new Request(url, { method: request.method, headers, body }))
    } catch (error) {
      if (attempt?.allowed) await attempt.finish('error')
      throw error
    }
    if (attempt?.allowed) {
      // A reset or verification mail request answers 200 for every address: each one counts, or the
      // throttle would never hold back a stream of such mails to one inbox.
      const counted =
        url.pathname === '/api/auth/request-password-reset' ||
        url.pathname === '/api/auth/send-verification-email'
      const signedIn =
        callback && response.status < 400 && !/[?&]error=/.test(response.headers.get('location') ?? '')
      await attempt.finish(
        response.status >= 500
          ? 'error'
          : (response.status < 300 && !counted && !callback) || signedIn
            ? 'success'
            : 'failure',
      )
    }
    const raw = response.body ? Buffer.from(await response.arrayBuffer()) : null
    const answer = raw && isJson(response.headers) ? withoutTokens(raw) : raw
    reply.code(response.status)
    for (const [name, value] of response.headers) {
      const lower = name.toLowerCase()
      if (lower === 'set-cookie' || (lower === 'content-length' && answer !== raw)) continue
      reply.header(name, value)
    }
    const cookies = response.headers.getSetCookie()
    if (cookies.length > 0) reply.header('set-cookie', cookies)
    return reply.send(answer)
  }

  app.get(
    '/api/auth/*',
    {
      config: {
        doc: {
          summary: 'Better Auth (reads), e.g. `get-session`',
          description:
            'Better Auth serves everything under `/api/auth/`; its answers are its own (not `ErrorResponse`). ' +
            '`GET /api/auth/get-session` answers the session and user of the cookie, or null; ' +
            "`GET /api/auth/list-sessions` the user's active sessions. Neither carries a session token.",
          tag: 'Auth',
          access: 'public',
          params: { path: 'The Better Auth endpoint, e.g. `get-session`' },
          responses: {
            200: json("Better Auth's answer", anyJson),
            default: json("Better Auth's error", anyJson),
          },
        },
      },
    },
    handler,
  )

  app.post(
    '/api/auth/*',
    {
      config: {
        doc: {
          summary: 'Better Auth: sign up, sign in, sign out',
          description:
            '`POST /api/auth/sign-up/email` `{name, email, password}` creates an account (the first one owns ' +
            'the instance; closed when `DISABLE_SIGNUP` is set and the owner exists) and signs it in; ' +
            '`POST /api/auth/sign-in/email` `{email, password}` sets the session cookie; ' +
            '`POST /api/auth/sign-out` ends the session. Two-factor sign-in: `two-factor/enable` `{password}` ' +
            'answers `{totpURI, backupCodes}` and `two-factor/verify-totp` `{code}` with a first code turns it ' +
            'on; then sign-in answers `{twoFactorRedirect: true}` and no session until `two-factor/verify-totp` ' +
            'or `two-factor/verify-backup-code` `{code}`; `two-factor/disable` `{password}` turns it off. ' +
            'No answer carries a session token (the cookie alone does). ' +
            "Answers are Better Auth's own, but for 429: " +
            'failed sign-ins, sign-ups, password checks and two-factor codes are throttled per account and client address ' +
            '(`AUTH_THROTTLE_*`), and beyond the limit even the right password is refused until `Retry-After`. ' +
            'Requests with the session cookie must come from BASE_URL or a trusted origin (`TRUSTED_ORIGINS`).',
          tag: 'Auth',
          access: 'public',
          params: {
            path: 'The Better Auth endpoint: `sign-up/email`, `sign-in/email`, `sign-out`, `two-factor/enable`, ...',
          },
          body: authBody,
          responses: {
            200: json('Done; sign-up and sign-in set the session cookie', anyJson),
            403: json(
              "Better Auth's refusal, e.g. an Origin that is not BASE_URL or a trusted origin (`{message, code}`)",
              anyJson,
            ),
            429:
              'Too many failed attempts for this account from this address (5 per 15 minutes by default) or ' +
              'from this address (50): sign-in, sign-up, password and two-factor code endpoints; see `Retry-After`. ' +
              'Reset and verification mail requests and reset tokens count the same limits in a budget of their own',
            400: json("Better Auth's validation error (`{message, code}`)", anyJson),
            default: json(
              "Better Auth's error (e.g. 400, 401 wrong password or code, 403, 422 email taken)",
              anyJson,
            ),
          },
        },
      },
    },
    handler,
  )
}

/**
 * The parsed JSON body as text again for Better Auth's Request.
 * @throws AppError 400 for a body nested too deeply to serialize (JSON.stringify exhausts the stack)
 */
function reserialize(body: unknown): string | undefined {
  if (body === undefined) return undefined
  try {
    return JSON.stringify(body)
  } catch {
    throw badRequest('Request body is nested too deeply')
  }
}

const isJson = (headers: Headers) => /^application\/json\b/i.test(headers.get('content-type') ?? '')

/** Remove every `token` key, at any depth, from a JSON value. */
function dropTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropTokens)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'token')
      .map(([key, inner]) => [key, dropTokens(inner)]),
  )
}

/**
 * Better Auth's JSON answer without session tokens (see the module comment).
 * @returns the same bytes when the answer has no `token` key or is not JSON after all
 */
function withoutTokens(body: Buffer): Buffer {
  const text = body.toString('utf8')
  if (!text.includes('"token"')) return body
  try {
    return Buffer.from(JSON.stringify(dropTokens(JSON.parse(text))))
  } catch {
    return body
  }
}

/**
 * The account an attempt names: for a two-factor code, the user of the session (confirming an
 * enrolment) or of the pending sign-in (`two-factor:<id>`); else the body's email, else the signed-in
 * user (password checks, `user:<id>`).
 */
async function accountOf(
  request: FastifyRequest,
  auth: Auth,
  action: AuthAction,
): Promise<string | undefined> {
  if (action === 'two_factor') {
    const userId =
      (await sessionUserOf(request, auth)) ?? (await pendingTwoFactorUser(auth, request.headers.cookie))
    return userId === undefined ? undefined : `two-factor:${userId}`
  }
  const body = request.body
  if (body && typeof body === 'object' && 'email' in body && typeof body.email === 'string') {
    return body.email.slice(0, 320)
  }
  const userId = await sessionUserOf(request, auth)
  return userId === undefined ? undefined : `user:${userId}`
}

/** The user of the request's session cookie, if it has a valid one. */
async function sessionUserOf(request: FastifyRequest, auth: Auth): Promise<string | undefined> {
  if (!request.headers.cookie) return undefined
  const session = await auth.api.getSession({ headers: toHeaders(request) }).catch(() => null)
  return session?.user.id
}
