/**
 * The dashboard's authentication calls, each through Better Auth's client (`auth-client.ts`, loaded on
 * the first call so that it stays out of the initial JavaScript). Each answers the data or throws the
 * dashboard's `ApiError` (`toApiError` of Better Auth's `{code, message}`), as the rest of the API
 * does, so forms show messages and field errors alike.
 */
import type { SessionInfo } from '@pathlight/protocol'
import { toApiError } from '../api/api-error'
import type { SsoConfig, SsoProviderFor } from './auth-client'

export type { SsoConfig, SsoProviderFor }

let loaded: Promise<typeof import('./auth-client')> | undefined
/** Better Auth's client, loaded once. */
const client = async () => {
  loaded ??= import('./auth-client')
  return (await loaded).authClient
}

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

/** The authentication calls the dashboard makes, each through Better Auth's client. */
export const auth = {
  session: async () => unwrap((await client()).getSession() as Promise<Answer<SessionInfo | null>>),
  /** Sign in; with two-factor sign-in on, no session yet: `twoFactorRedirect` asks for a code. */
  signIn: async (email: string, password: string) =>
    unwrap(
      (await client()).signIn.email({ email, password }) as Promise<Answer<{ twoFactorRedirect?: boolean }>>,
    ),
  signUp: async (name: string, email: string, password: string) =>
    unwrap((await client()).signUp.email({ name, email, password })),
  /**
   * End the session; with an SSO session whose provider offers end-session, the browser then goes to
   * the provider's sign-out page (Better Auth's client follows the answer's `url`).
   */
  signOut: async () => unwrap((await client()).signOut({ callbackURL: '/sign-in' } as never)),
  ssoConfig: async () => unwrap((await client()).ssoConfig() as Promise<Answer<SsoConfig>>),
  /** The provider that signs `email` in. @throws ApiError 404 `SSO_NOT_CONFIGURED` when none does */
  ssoProviderFor: async (email: string) =>
    unwrap((await client()).ssoProviderFor(email) as Promise<Answer<SsoProviderFor>>),
  /**
   * Start single sign-on: the browser goes to the identity provider and comes back to `next` (or to
   * the sign-in page with `?error=<code>` when the sign-in is refused).
   */
  signInWithSso: async (providerId: string, next: string) =>
    unwrap(
      (await client()).signIn.social({
        provider: providerId,
        callbackURL: next,
        errorCallbackURL: '/sign-in',
        newUserCallbackURL: next,
      }),
    ),
  enableTwoFactor: async (password: string) => unwrap((await client()).twoFactor.enable({ password })),
  /** A code from the authenticator app: confirms an enrolment, or completes a pending sign-in. */
  verifyTotp: async (code: string) => unwrap((await client()).twoFactor.verifyTotp({ code })),
  /** A backup code (each works once): completes a pending sign-in. */
  verifyBackupCode: async (code: string) => unwrap((await client()).twoFactor.verifyBackupCode({ code })),
  disableTwoFactor: async (password: string) => unwrap((await client()).twoFactor.disable({ password })),
  /** Have a reset link mailed (the same answer whether or not an account has the address; 503 without e-mail). */
  requestPasswordReset: async (email: string, redirectTo: string) =>
    unwrap((await client()).requestPasswordReset({ email, redirectTo })),
  /** Set a new password with a reset link's token; every session of the account ends. */
  resetPassword: async (newPassword: string, token: string) =>
    unwrap((await client()).resetPassword({ newPassword, token })),
}
