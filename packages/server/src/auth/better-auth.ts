/**
 * Accounts: email + password sign-up and sign-in with a session cookie, by Better Auth, mounted at
 * `/api/auth/*` (`/api/auth/sign-up/email`, `/api/auth/sign-in/email`, `/api/auth/sign-out`, ...).
 * Better Auth's tables live in the metadata store and are created by Pathlight's own migration 001.
 * The first account on a fresh instance becomes its owner; with `disableSignup`, sign-up is closed
 * once that account exists. Display names are at most 200 characters (`user-fields.ts`).
 *
 * Two-factor sign-in (Better Auth's `twoFactor` plugin, table `twoFactor` from migration 010) is each
 * account's choice: `POST /api/auth/two-factor/enable {password}` answers a TOTP URI (SHA-1, 6 digits,
 * 30 s, issuer "Pathlight") and 10 single-use backup codes, and `two-factor/verify-totp {code}` with a
 * first code turns it on; from then on the right password answers `{twoFactorRedirect: true}` with no
 * session, only a 10-minute `two_factor` cookie, until `two-factor/verify-totp` or
 * `two-factor/verify-backup-code` takes a code; `two-factor/disable {password}` turns it off. Better
 * Auth allows 5 codes per pending sign-in and locks an account's codes for 15 minutes after 10
 * consecutive failures; Pathlight's throttle counts code attempts like passwords on top.
 *
 * Security settings that do not depend on NODE_ENV: Better Auth's own request limiter is off, because
 * Pathlight's authentication throttle (`auth-throttle.ts`, in front of these routes) counts failures
 * per account and address whatever the environment; its CSRF check trusts the same origins as the
 * rest of the API (`origin-policy.ts`); the session cookie is `Secure` (and `__Secure-` prefixed)
 * exactly when BASE_URL is https; sessions record the client address that Fastify resolved
 * (TRUST_PROXY applied); a password change always signs out the user's other sessions.
 *
 * Password reset is Better Auth's flow: `POST /api/auth/request-password-reset {email, redirectTo?}`
 * answers the same for known and unknown addresses and, for a known one, mails a one-time link (valid
 * 1 hour) through the mail outbox; the link passes through `GET /api/auth/reset-password/<token>` to
 * `redirectTo` (default the dashboard's `BASE_URL/reset-password`) with `?token=`, and
 * `POST /api/auth/reset-password {newPassword, token}` sets the password, ends every session of the
 * account and voids every other reset link of the account still outstanding.
 *
 * Address verification is Better Auth's e-mail verification, on when SMTP settings are given: sign-up
 * mails a link (`GET /api/auth/verify-email?token=`, valid 24 hours) that sets `emailVerified`, and
 * `POST /api/auth/send-verification-email {email}` mails another. An address counts as confirmed for an
 * organization's mail only once verified (`mail/member-addresses.ts`). Sign-in does not wait for it.
 * Without SMTP settings nothing is mailed and addresses stay unverified.
 *
 * Without SMTP settings a reset request is refused (503) whatever the address, so the answer tells
 * nothing about accounts; operators then use `npx pathlight reset-password EMAIL` (logged once as a
 * warning, `auth-error-log.ts`). With
 * `disableSignup`, an address with a pending invitation may still sign up.
 */
import { APIError, betterAuth } from 'better-auth'
import { createAuthMiddleware } from 'better-auth/api'
import { twoFactor } from 'better-auth/plugins'
import { sql } from 'kysely'
import { enqueueMail } from '../mail/mail-outbox.js'
import { type MailSettings, mailUnavailable } from '../mail/mail-settings.js'
import { emailVerificationMail } from '../mail/templates/email-verification.js'
import { passwordResetMail } from '../mail/templates/password-reset.js'
import { isInvited } from '../organizations/invitations.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import type { MetadataStore } from '../storage/metadata/db.js'
import { getSetting, setSettingOnce } from '../storage/metadata/instance-settings.js'
import { createAuthErrorLog } from './auth-error-log.js'
import { mcpOAuthPlugin } from './mcp-oauth-plugin.js'
import type { OidcSettings } from './oidc-settings.js'
import type { OriginPolicy } from './origin-policy.js'
import { installQuietAuthStorage } from './quiet-async-storage.js'
import { ssoPlugins } from './sso-plugin.js'
import { checkUserFields } from './user-fields.js'

/** The request header that carries the client address to Better Auth (set by `http/caller.ts`). */
export const CLIENT_IP_HEADER = 'x-pathlight-client-ip'

export const INSTANCE_OWNER_SETTING = 'instance_owner_user_id'

export interface AuthOptions {
  store: MetadataStore
  secret: string
  baseUrl: string
  disableSignup: boolean
  origins: OriginPolicy
  /** The service's LOG_LEVEL: Better Auth logs warnings and errors, nothing at `silent`. */
  logLevel?: string
  /** Outgoing mail; undefined without SMTP_URL (password reset mails then answer 503). */
  mail?: MailSettings
  /** The instance-wide OpenID Connect provider (`sso-plugin.ts`); undefined without OIDC_ISSUER. */
  oidc?: OidcSettings
  /** Where membership changes made at SSO sign-in are announced. */
  changes?: ChangeFeed
}

/** How long an address verification link works, in seconds. */
export const EMAIL_VERIFICATION_TTL_SECONDS = 86_400

/** How long a password reset link works, in seconds. */
export const RESET_PASSWORD_TTL_SECONDS = 3600

/** The dashboard's page a reset link leads to (with `?token=`), unless the request names another. */
export const resetPasswordPage = (baseUrl: string) => `${baseUrl}/reset-password`

/** Build the Better Auth instance. Its `handler(Request)` serves `/api/auth/*`. */
export function createAuth({
  store,
  secret,
  baseUrl,
  disableSignup,
  origins,
  logLevel,
  mail,
  oidc,
  changes,
}: AuthOptions) {
  installQuietAuthStorage()
  return betterAuth({
    appName: 'Pathlight',
    database: { db: store.db, type: store.dialect },
    secret,
    baseURL: baseUrl,
    basePath: '/api/auth',
    trustedOrigins: async (request) => origins.trustedFor(request?.headers.get('host') ?? undefined),
    rateLimit: { enabled: false },
    advanced: {
      // Better Auth skips its origin check when it believes it runs under a test runner: never here.
      disableOriginCheck: false,
      disableCSRFCheck: false,
      useSecureCookies: baseUrl.startsWith('https://'),
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    telemetry: { enabled: false },
    logger:
      logLevel === 'silent'
        ? { disabled: true }
        : { level: logLevel === 'fatal' || logLevel === 'error' ? 'error' : 'warn' },
    onAPIError: { onError: createAuthErrorLog() },
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: 8,
      maxPasswordLength: 256,
      resetPasswordTokenExpiresIn: RESET_PASSWORD_TTL_SECONDS,
      revokeSessionsOnPasswordReset: true,
      onPasswordReset: async ({ user }) => {
        await revokeResetTokens(store, user.id)
      },
      sendResetPassword: async ({ user, url }) => {
        await enqueueMail(
          store.db,
          passwordResetMail({
            to: user.email,
            name: user.name,
            url,
            validMinutes: RESET_PASSWORD_TTL_SECONDS / 60,
          }),
        )
      },
    },
    ...(mail && {
      emailVerification: {
        sendOnSignUp: true,
        autoSignInAfterVerification: false,
        expiresIn: EMAIL_VERIFICATION_TTL_SECONDS,
        sendVerificationEmail: async ({ user, url }) => {
          await enqueueMail(
            store.db,
            emailVerificationMail({
              to: user.email,
              name: user.name,
              url,
              validHours: EMAIL_VERIFICATION_TTL_SECONDS / 3600,
            }),
          )
        },
      },
    }),
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    plugins: [
      twoFactor({ issuer: 'Pathlight' }),
      ...ssoPlugins({
        store,
        baseUrl,
        oidc,
        changes,
        instanceOwner: () => getSetting(store.db, INSTANCE_OWNER_SETTING),
      }),
      mcpOAuthPlugin(baseUrl),
    ],
    databaseHooks: {
      user: {
        create: {
          before: async (user) => {
            checkUserFields(user)
          },
          after: async (user) => {
            await setSettingOnce(store.db, INSTANCE_OWNER_SETTING, user.id)
          },
        },
        update: {
          before: async (user) => {
            checkUserFields(user)
          },
        },
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path === '/change-password') {
          return { context: { ...ctx, body: { ...ctx.body, revokeOtherSessions: true } } }
        }
        if (ctx.path === '/request-password-reset') {
          if (!mail) throw new APIError('SERVICE_UNAVAILABLE', { message: mailUnavailable().message })
          if (ctx.body?.redirectTo) return
          return { context: { ...ctx, body: { ...ctx.body, redirectTo: resetPasswordPage(baseUrl) } } }
        }
        if (ctx.path !== '/sign-up/email' || !disableSignup) return
        const email: unknown = ctx.body?.email
        if (typeof email === 'string' && (await isInvited(store.db, email))) return
        if (await getSetting(store.db, INSTANCE_OWNER_SETTING)) {
          throw new APIError('FORBIDDEN', { message: 'Sign-up is disabled on this instance' })
        }
      }),
    },
  })
}

export type Auth = ReturnType<typeof createAuth>

/**
 * Void every outstanding password reset token of a user: Better Auth keeps each as a verification
 * row `reset-password:<token>` whose value is the user id.
 */
async function revokeResetTokens(store: MetadataStore, userId: string): Promise<void> {
  await sql`DELETE FROM "verification" WHERE "identifier" LIKE 'reset-password:%' AND "value" = ${userId}`.execute(
    store.db,
  )
}
