/**
 * Accounts: email + password sign-up and sign-in with a session cookie, by Better Auth, mounted at
 * `/api/auth/*` (`/api/auth/sign-up/email`, `/api/auth/sign-in/email`, `/api/auth/sign-out`, ...).
 * Better Auth's tables live in the metadata store and are created by Pathlight's own migration 001.
 * The first account on a fresh instance becomes its owner; with `disableSignup`, sign-up is closed
 * once that account exists.
 */
import { APIError, betterAuth } from 'better-auth'
import { createAuthMiddleware } from 'better-auth/api'
import type { MetadataStore } from '../storage/metadata/db.js'
import { getSetting, setSettingOnce } from '../storage/metadata/instance-settings.js'

export const INSTANCE_OWNER_SETTING = 'instance_owner_user_id'

export interface AuthOptions {
  store: MetadataStore
  secret: string
  baseUrl: string
  disableSignup: boolean
}

/** Build the Better Auth instance. Its `handler(Request)` serves `/api/auth/*`. */
export function createAuth({ store, secret, baseUrl, disableSignup }: AuthOptions) {
  return betterAuth({
    appName: 'Pathlight',
    database: { db: store.db, type: store.dialect },
    secret,
    baseURL: baseUrl,
    basePath: '/api/auth',
    // BASE_URL, and the server's own origin as the request names it (the dashboard is served by this
    // server, so same-origin requests are ours; a cross-site form post still fails the check).
    trustedOrigins: async (request) => {
      const host = request?.headers.get('host')
      return host ? [baseUrl, `http://${host}`, `https://${host}`] : [baseUrl]
    },
    telemetry: { enabled: false },
    emailAndPassword: { enabled: true, autoSignIn: true, minPasswordLength: 8, maxPasswordLength: 256 },
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    databaseHooks: {
      user: {
        create: {
          after: async (user) => {
            await setSettingOnce(store.db, INSTANCE_OWNER_SETTING, user.id)
          },
        },
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== '/sign-up/email' || !disableSignup) return
        if (await getSetting(store.db, INSTANCE_OWNER_SETTING)) {
          throw new APIError('FORBIDDEN', { message: 'Sign-up is disabled on this instance' })
        }
      }),
    },
  })
}

export type Auth = ReturnType<typeof createAuth>
