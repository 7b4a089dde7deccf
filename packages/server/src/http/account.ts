/**
 * Routes: the signed-in user's own sessions and password (authenticated scope, session cookie only:
 * an API key answers 403, since a key must not be able to sign its user out or take over the account).
 * - `GET /api/user/sessions`: the user's active sessions (never their tokens), newest first, the
 *   current one marked;
 * - `DELETE /api/user/sessions/:id`: revoke one (the current one too: that signs out);
 * - `PUT /api/user/password {currentPassword, newPassword}`: change the password and sign out every
 *   other session; the answer carries a new session cookie. Wrong current passwords count in the
 *   authentication throttle (`auth/auth-throttle.ts`): beyond it, 429 with `Retry-After`.
 * Better Auth does the work (`listSessions`, `revokeSession`, `changePassword`).
 */
import { ownSession, successList, successResponse } from '@pathlight/protocol'
import { APIError } from 'better-auth/api'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { AuthThrottle } from '../auth/auth-throttle.js'
import type { Auth } from '../auth/better-auth.js'
import { badRequest, forbidden, notFound, tooManyAttempts } from '../shared/errors.js'
import { toHeaders } from './caller.js'
import { callerOf } from './caller-of.js'
import { deleted } from './openapi/doc-parts.js'
import { json } from './openapi/route-doc.js'
import { wholeList } from './whole-list.js'

/** One of the user's sessions as listed. */
export interface OwnSession {
  id: string
  createdAt: string
  /** When the session was last refreshed (Better Auth refreshes it once a day of use). */
  updatedAt: string
  expiresAt: string
  ipAddress: string | null
  userAgent: string | null
  /** Whether this is the session making the request. */
  current: boolean
}

export const changePasswordBody = z.strictObject({
  currentPassword: z
    .string({ error: 'currentPassword is required' })
    .min(1, 'currentPassword is required')
    .max(256, 'currentPassword must be at most 256 characters'),
  newPassword: z
    .string({ error: 'newPassword is required' })
    .min(8, 'newPassword must be at least 8 characters')
    .max(256, 'newPassword must be at most 256 characters'),
})

const iso = (value: Date | string) => new Date(value).toISOString()

export async function accountRoutes(
  app: FastifyInstance,
  { auth, throttle }: { auth: Auth; throttle: AuthThrottle },
) {
  const sessionUser = (request: FastifyRequest) => {
    const caller = callerOf(request)
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

  app.get(
    '/api/user/sessions',
    {
      config: {
        doc: {
          summary: 'My active sessions',
          description: 'Newest first; the one making the request is `current`. Tokens are never shown.',
          tag: 'API keys',
          access: 'session',
          responses: { 200: json('My sessions', successList(ownSession)) },
        },
      },
    },
    async (request) => {
      sessionUser(request)
      const listed = await listOwn(request)
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
    },
  )

  app.delete<{ Params: { id: string } }>(
    '/api/user/sessions/:id',
    {
      config: {
        doc: {
          summary: 'Revoke one of my sessions',
          description: 'Signs that browser out at once; revoking the current session signs this one out.',
          tag: 'API keys',
          access: 'session',
          params: { id: 'The session id (from `GET /api/user/sessions`)' },
          responses: { 200: deleted, 404: 'No active session of mine with that id' },
        },
      },
    },
    async (request) => {
      sessionUser(request)
      const found = (await listOwn(request)).find(({ session }) => session.id === request.params.id)
      if (!found) throw notFound('Session not found')
      await auth.api.revokeSession({ headers: toHeaders(request), body: { token: found.session.token } })
      return { success: true }
    },
  )

  app.put(
    '/api/user/password',
    {
      config: {
        doc: {
          summary: 'Change my password',
          description:
            'Needs the current password; signs out every other session of mine and answers a new session ' +
            'cookie for this one. Wrong current passwords count in the authentication throttle.',
          tag: 'API keys',
          access: 'session',
          body: changePasswordBody,
          responses: {
            200: json('Changed', successResponse),
            429: 'Too many wrong current passwords; see `Retry-After`',
          },
        },
      },
    },
    async (request, reply) => {
      const userId = sessionUser(request)
      const parsed = changePasswordBody.safeParse(request.body)
      if (!parsed.success) throw badRequest('Invalid password change', z.flattenError(parsed.error))
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
          body: { ...parsed.data, revokeOtherSessions: true },
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
      return { success: true }
    },
  )
}
