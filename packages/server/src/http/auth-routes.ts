/**
 * Mounts Better Auth at `/api/auth/*`: the Fastify request becomes a WHATWG Request, Better Auth's
 * Response is copied back (status, headers including Set-Cookie, body). Sign-in, sign-up and the
 * password endpoints go through the authentication throttle first (`auth/auth-throttle.ts`): beyond its
 * limits they answer 429 with `Retry-After` and Better Auth is not asked.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { AuthAction, AuthThrottle } from '../auth/auth-throttle.js'
import type { Auth } from '../auth/better-auth.js'
import { badRequest, tooManyAttempts } from '../shared/errors.js'
import { toHeaders } from './caller.js'

/** Better Auth paths (after `/api/auth`) that are throttled, and the action each counts as. */
export const THROTTLED_AUTH_PATHS: Readonly<Record<string, AuthAction>> = {
  '/sign-in/email': 'sign_in',
  '/sign-up/email': 'sign_up',
  '/change-password': 'password',
  '/change-email': 'password',
  '/delete-user': 'password',
  '/verify-password': 'password',
  '/request-password-reset': 'password',
  '/reset-password': 'password',
}

export interface AuthRouteOptions {
  auth: Auth
  baseUrl: string
  throttle: AuthThrottle
}

export async function authRoutes(app: FastifyInstance, { auth, baseUrl, throttle }: AuthRouteOptions) {
  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    async handler(request, reply) {
      const url = new URL(request.url, baseUrl)
      const body = request.method === 'GET' ? undefined : reserialize(request.body)
      const headers = toHeaders(request)
      if (body !== undefined) headers.set('content-type', 'application/json')
      const action =
        request.method === 'POST' ? THROTTLED_AUTH_PATHS[url.pathname.slice('/api/auth'.length)] : undefined
      const attempt = action
        ? await throttle.begin({ action, account: await accountOf(request, auth), address: request.ip })
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
        await attempt.finish(response.status < 300 ? 'success' : response.status >= 500 ? 'error' : 'failure')
      }
      reply.code(response.status)
      for (const [name, value] of response.headers) {
        if (name.toLowerCase() !== 'set-cookie') reply.header(name, value)
      }
      const cookies = response.headers.getSetCookie()
      if (cookies.length > 0) reply.header('set-cookie', cookies)
      return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : null)
    },
  })
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

/** The account an attempt names: the body's email, else the signed-in user (password changes). */
async function accountOf(request: FastifyRequest, auth: Auth): Promise<string | undefined> {
  const body = request.body
  if (body && typeof body === 'object' && 'email' in body && typeof body.email === 'string') {
    return body.email.slice(0, 320)
  }
  if (!request.headers.cookie) return undefined
  const session = await auth.api.getSession({ headers: toHeaders(request) }).catch(() => null)
  return session ? `user:${session.user.id}` : undefined
}
