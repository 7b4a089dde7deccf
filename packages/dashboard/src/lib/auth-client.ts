/**
 * The dashboard's authentication, through Better Auth's own client (`better-auth/client`) with the
 * client parts of the server's plugins: `twoFactorClient` (two-factor sign-in) and `ssoClient`, the
 * client part of Pathlight's `pathlight-sso` plugin (`GET /api/auth/sso/config`: whether "Sign in with
 * SSO" is offered). Single sign-on itself is Better Auth's `signIn.social` with the `oidc` provider.
 *
 * Each function answers the data or throws the dashboard's `ApiError` (`toApiError` of Better Auth's
 * `{code, message}`), as the rest of the API does, so forms show messages and field errors alike.
 */
import type { SessionInfo } from '@pathlight/protocol'
import type { BetterAuthClientPlugin } from 'better-auth/client'
import { createAuthClient } from 'better-auth/client'
import { twoFactorClient } from 'better-auth/client/plugins'
import { toApiError } from '../api/api-error'

/** What `GET /api/auth/sso/config` answers. */
export interface SsoConfig {
  enabled: boolean
  providerId: string
  name: string | null
}

/** The client part of the server's `pathlight-sso` plugin. */
const ssoClient = () =>
  ({
    id: 'pathlight-sso',
    getActions: ($fetch) => ({
      /** Whether SSO is offered, and the provider's name for the button. */
      ssoConfig: () => $fetch<SsoConfig>('/sso/config', { method: 'GET' }),
    }),
  }) satisfies BetterAuthClientPlugin

/** Better Auth's client of this origin's `/api/auth`. */
export const authClient = createAuthClient({
  basePath: '/api/auth',
  plugins: [twoFactorClient(), ssoClient()],
  // The dashboard reads the session when it needs it; no refetch on focus or across tabs.
  sessionOptions: { refetchOnWindowFocus: false },
})

type Answer<T> = { data: T | null; error: { status: number; message?: string; code?: string } | null }

/** The answer's data. @throws ApiError for Better Auth's error answer, or 0 when unreachable */
async function unwrap<T>(promise: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>
  try {
    answer = await promise
  } catch {
    throw toApiError(0, undefined)
  }
  if (answer.error) {
    throw toApiError(answer.error.status, { code: answer.error.code, message: answer.error.message })
  }
  return answer.data as T
}

/** The authentication calls the dashboard makes, each through {@link authClient}. */
export const auth = {
  session: () => unwrap(authClient.getSession() as Promise<Answer<SessionInfo | null>>),
  /** Sign in; with two-factor sign-in on, no session yet: `twoFactorRedirect` asks for a code. */
  signIn: (email: string, password: string) =>
    unwrap(authClient.signIn.email({ email, password }) as Promise<Answer<{ twoFactorRedirect?: boolean }>>),
  signUp: (name: string, email: string, password: string) =>
    unwrap(authClient.signUp.email({ name, email, password })),
  /**
   * End the session; with an SSO session whose provider offers end-session, the browser then goes to
   * the provider's sign-out page (Better Auth's client follows the answer's `url`).
   */
  signOut: () => unwrap(authClient.signOut({ callbackURL: '/sign-in' } as never)),
  ssoConfig: () => unwrap(authClient.ssoConfig() as Promise<Answer<SsoConfig>>),
  /**
   * Start single sign-on: the browser goes to the identity provider and comes back to `next` (or to
   * the sign-in page with `?error=<code>` when the sign-in is refused).
   */
  signInWithSso: (providerId: string, next: string) =>
    unwrap(
      authClient.signIn.social({
        provider: providerId,
        callbackURL: next,
        errorCallbackURL: '/sign-in',
        newUserCallbackURL: next,
      }),
    ),
  enableTwoFactor: (password: string) => unwrap(authClient.twoFactor.enable({ password })),
  /** A code from the authenticator app: confirms an enrolment, or completes a pending sign-in. */
  verifyTotp: (code: string) => unwrap(authClient.twoFactor.verifyTotp({ code })),
  /** A backup code (each works once): completes a pending sign-in. */
  verifyBackupCode: (code: string) => unwrap(authClient.twoFactor.verifyBackupCode({ code })),
  disableTwoFactor: (password: string) => unwrap(authClient.twoFactor.disable({ password })),
  /** Have a reset link mailed (the same answer whether or not an account has the address; 503 without e-mail). */
  requestPasswordReset: (email: string, redirectTo: string) =>
    unwrap(authClient.requestPasswordReset({ email, redirectTo })),
  /** Set a new password with a reset link's token; every session of the account ends. */
  resetPassword: (newPassword: string, token: string) =>
    unwrap(authClient.resetPassword({ newPassword, token })),
}
