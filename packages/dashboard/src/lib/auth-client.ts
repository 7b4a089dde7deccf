/**
 * The dashboard's authentication, through Better Auth's own client (`better-auth/client`) with the
 * client parts of the server's plugins: `twoFactorClient` (two-factor sign-in) and `ssoClient`, the
 * client part of Pathlight's `pathlight-sso` plugin (`GET /api/auth/sso/config`: whether "Sign in with
 * SSO" is offered). Single sign-on itself is Better Auth's `signIn.social` with the `oidc` provider.
 *
 * The app reaches it through `lib/auth.ts`, which loads this module on the first call: Better Auth's
 * client stays out of the initial JavaScript (the dashboard's budget is 120 KB gzipped).
 */
import type { BetterAuthClientPlugin } from 'better-auth/client'
import { createAuthClient } from 'better-auth/client'
import { twoFactorClient } from 'better-auth/client/plugins'

/** What `GET /api/auth/sso/config` answers. */
export interface SsoConfig {
  enabled: boolean
  providerId: string
  name: string | null
  /** Organizations have providers of their own: the sign-in page asks the address first. */
  byEmail?: boolean
}

/** What `POST /api/auth/sso/provider-for` answers: the provider that signs an address in. */
export interface SsoProviderFor {
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
      /** The provider of the address's domain (an organization's, else the instance-wide one). */
      ssoProviderFor: (email: string) =>
        $fetch<SsoProviderFor>('/sso/provider-for', { method: 'POST', body: { email } }),
    }),
  }) satisfies BetterAuthClientPlugin

/** Better Auth's client of this origin's `/api/auth`. */
export const authClient = createAuthClient({
  basePath: '/api/auth',
  plugins: [twoFactorClient(), ssoClient()],
  // The dashboard reads the session when it needs it; no refetch on focus or across tabs.
  sessionOptions: { refetchOnWindowFocus: false },
})
