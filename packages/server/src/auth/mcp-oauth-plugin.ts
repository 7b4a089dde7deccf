/**
 * OAuth 2.1 for MCP clients, by Better Auth's OAuth provider plugin (`@better-auth/oauth-provider`),
 * under `/api/auth/oauth2/*`: dynamic client registration (RFC 7591, open, public clients with PKCE),
 * the authorization code flow with PKCE (S256), a consent page in the dashboard (`/oauth/consent`),
 * tokens and refresh tokens. The scopes are `mcp:read` and `mcp:write` (and `offline_access` for a
 * refresh token); an access token acts as its user with the scope it was granted, like an API key of
 * that scope (`mcp-oauth-tokens.ts`), so it reaches exactly the user's sites. Access tokens are opaque,
 * valid one hour, and stored as their SHA-256 (hex) so that the API can verify them with one lookup.
 * Its tables (`oauthClient`, `oauthRefreshToken`, `oauthAccessToken`, `oauthConsent`, `oauthResource`,
 * `oauthClientResource`) come from metadata migration 018.
 */
import crypto from 'node:crypto'
import { oauthProvider } from '@better-auth/oauth-provider'

/** The scopes an MCP client may ask for. */
export const MCP_OAUTH_SCOPES = ['mcp:read', 'mcp:write', 'offline_access'] as const

/** How long an access token works, in seconds. */
export const MCP_ACCESS_TOKEN_TTL_SECONDS = 3600

/** The dashboard's consent page (Better Auth sends the browser there with the request's parameters). */
export const OAUTH_CONSENT_PAGE = '/oauth/consent'

/** The stored form of a token: its SHA-256, hex. */
export const hashOAuthToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex')

/** The protected resource its tokens are for: the MCP endpoint (RFC 8707 `resource`). */
export const mcpResource = (baseUrl: string) => `${baseUrl}/api/mcp`

/** The plugin, for `createAuth`'s plugin list; `baseUrl` is BASE_URL. */
export const mcpOAuthPlugin = (baseUrl: string) =>
  oauthProvider({
    resources: [mcpResource(baseUrl)],
    clientRegistrationDefaultResources: [mcpResource(baseUrl)],
    loginPage: '/sign-in',
    consentPage: OAUTH_CONSENT_PAGE,
    scopes: [...MCP_OAUTH_SCOPES],
    grantTypes: ['authorization_code', 'refresh_token'],
    allowDynamicClientRegistration: true,
    allowUnauthenticatedClientRegistration: true,
    accessTokenExpiresIn: MCP_ACCESS_TOKEN_TTL_SECONDS,
    disableJwtPlugin: true,
    storeTokens: { hash: (token) => hashOAuthToken(token) },
  })
