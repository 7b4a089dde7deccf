/**
 * Routes: the signed-in user's own sessions and password (authenticated scope, session cookie only:
 * an API key answers 403, since a key must not be able to sign its user out or take over the account).
 * - `GET /api/user/sessions`: the user's active sessions (never their tokens), newest first, the
 *   current one marked;
 * - `DELETE /api/user/sessions/:id`: revoke one (the current one too: that signs out);
 * - `PUT /api/user/password {currentPassword, newPassword}`: change the password and sign out every
 *   other session; the answer carries a new session cookie. Wrong current passwords count in the
 *   authentication throttle (`auth/auth-throttle.ts`): beyond it, 429 with `Retry-After`.
 * Better Auth does the work (`listSessions`, `revokeSession`, `changePassword`). Registered from their
 * contracts (`@pathlight/protocol` `contracts/account.ts`).
 */
import {
  changePasswordEndpoint,
  listOwnSessionsEndpoint,
  type OwnSession,
  revokeOwnSessionEndpoint,
} from '@pathlight/protocol'
import { APIError } from 'better-auth/api'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { AuthThrottle } from '../auth/auth-throttle.js'
import type { Auth } from '../auth/better-auth.js'
import { badRequest, forbidden, notFound, tooManyAttempts } from '../shared/errors.js'
import type { Caller } from './caller.js'
import { toHeaders } from './caller.js'
import { route } from './route.js'
import { wholeList } from './whole-list.js'

const iso = (value: Date | string) => new Date(value).toISOString()

export async function accountRoutes(
  app: FastifyInstance,
  { auth, throttle }: { auth: Auth; throttle: AuthThrottle },
) {
  /** The caller's user id when it comes with a session cookie. @throws AppError 403 for an API key */
  const sessionUser = async ({ caller }: { caller: Caller }) => {
    if (caller.via !== 'session') throw forbidden('This route needs a signed-in session, not an API key')
    return caller.userId
  }

  const listOwn = async (request: FastifyRequest) => {
    const headers = toHeaders(request)
    const [sessions, current] = await Promise.all([
      auth.api.listSessions({ headers }),
      auth.api.getSession({ headers }),
    ])
    return sessions.map((s) => ({ session: s, current: s.id === current?.session.id }))
  }

  route(app, listOwnSessionsEndpoint, async (input) => {
    await sessionUser(input)
    const listed = await listOwn(input.request)
    const data: OwnSession[] = listed
      .map(({ session, current }) => ({
        id: session.id,
        createdAt: iso(session.createdAt),
        updatedAt: iso(session.updatedAt),
        expiresAt: iso(session.expiresAt),
        ipAddress: session.ipAddress ?? null,
        userAgent: session.userAgent ?? null,
        current,
      }))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    return wholeList(data)
  })

  route(app, revokeOwnSessionEndpoint, async (input) => {
    await sessionUser(input)
    const found = (await listOwn(input.request)).find(({ session }) => session.id === input.params.id)
    if (!found) throw notFound('Session not found')
    await auth.api.revokeSession({ headers: toHeaders(input.request), body: { token: found.session.token } })
    return { success: true as const }
  })

  route(app, changePasswordEndpoint, {
    resolve: sessionUser,
    handle: async ({ body, request, reply, resolved: userId }) => {
      const attempt = await throttle.begin({
        action: 'password',
        account: `user:${userId}`,
        address: request.ip,
      })
      if (!attempt.allowed) throw tooManyAttempts(attempt.retryAfterSeconds)
      let result: { headers: Headers }
      try {
        result = await auth.api.changePassword({
          headers: toHeaders(request),
          body: { ...body, revokeOtherSessions: true },
          returnHeaders: true,
        })
      } catch (error) {
        const refused = error instanceof APIError && error.statusCode < 500
        await attempt.finish(refused ? 'failure' : 'error')
        if (!refused) throw error
        throw badRequest('Invalid password change', {
          formErrors: [],
          fieldErrors: { currentPassword: ['currentPassword is not your current password'] },
        })
      }
      await attempt.finish('success')
      const cookies = result.headers.getSetCookie()
      if (cookies.length > 0) reply.header('set-cookie', cookies)
      return { success: true as const }
    },
  })
}
