/**
 * Single sign-on with OpenID Connect, as Better Auth plugins (added to `better-auth.ts`'s list).
 *
 * The instance-wide provider (`oidc-settings.ts`) is Better Auth's `genericOAuth` plugin with id
 * `oidc`: discovery from `<issuer>/.well-known/openid-configuration`, the authorization code flow with
 * PKCE (S256), `state` bound to the browser by a signed cookie and checked once, a `nonce` in the ID
 * token, whose signature (the provider's JWKS), issuer, audience and expiry are verified
 * (`requireIdTokenVerification`), the client secret sent as `client_secret_basic`. Sign-in starts with
 * `POST /api/auth/sign-in/social {provider: 'oidc', callbackURL, errorCallbackURL}` and comes back to
 * `GET /api/auth/callback/oidc`. Sign-out (`POST /api/auth/sign-out`) answers the provider's
 * end-session URL (`url`) when its discovery document names an `end_session_endpoint`.
 *
 * The `pathlight-sso` plugin adds Pathlight's rules around it, and `GET /api/auth/sso/config`
 * (`{enabled, providerId, name}`, for the sign-in page's button):
 * - accounts: the first sign-in creates the account (just in time); it links to an existing account
 *   with the same address only with `OIDC_ALLOW_LINKING` and when both the provider and Pathlight hold
 *   the address as verified (Better Auth's account linking), else it is refused (`account_not_linked`);
 * - roles: at each sign-in the ID token's role claim sets the membership of the SSO organization
 *   (`sso-roles.ts`);
 * - SSO-only organizations (`sso-settings.ts`): password sign-in, reset requests and reset tokens are
 *   refused (403 `SSO_REQUIRED`) for their members, except the instance owner (break-glass);
 * - a provider whose discovery fails answers 503 naming it, not a 500; errors of the callback land on
 *   the dashboard's sign-in page with `?error=<code>`;
 * - every SSO sign-in, link and refusal is audited (`sso.signed_in`, `sso.account_linked`, `sso.refused`);
 * - organizations' own providers (`organization-oidc.ts`), Better Auth providers `org-<organizationId>`
 *   put into the request's provider list from the metadata store before `/sign-in/social` and
 *   `/callback/:id` (`organization-oauth-providers.ts`); `POST /api/auth/sso/provider-for {email}`
 *   answers the provider of the address's domain (the instance-wide one otherwise), and a sign-in
 *   through an organization's provider maps the role into that organization.
 */
import { APIError, type BetterAuthPlugin } from 'better-auth'
import { createAuthEndpoint, createAuthMiddleware } from 'better-auth/api'
import { genericOAuth } from 'better-auth/plugins'
import { sql } from 'kysely'
import { recordAudit } from '../audit/audit-log.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import type { MetadataStore } from '../storage/metadata/db.js'
import { getSetting } from '../storage/metadata/instance-settings.js'
import type { OidcSettings } from './oidc-settings.js'
import { createOrganizationProviders } from './organization-oauth-providers.js'
import {
  hasOrganizationProviders,
  loadOrganizationOidc,
  organizationForEmail,
  organizationOfProviderId,
  organizationProviderId,
} from './organization-oidc.js'
import { emailDomainOf } from './public-mail-domains.js'
import {
  applySsoMembership,
  roleFromClaims,
  SSO_ORGANIZATION_SETTING,
  ssoOrganizationId,
} from './sso-roles.js'
import { ssoOnlyOrganizationOf } from './sso-settings.js'

/** The Better Auth provider id of the instance-wide provider (`/api/auth/callback/oidc`). */
export const OIDC_PROVIDER_ID = 'oidc'

/** The code and message of a password sign-in or reset refused because the account signs in with SSO. */
export const SSO_REQUIRED = {
  code: 'SSO_REQUIRED',
  message: 'Your organization signs in with single sign-on: use "Sign in with SSO" instead of a password.',
} as const

export interface SsoPluginOptions {
  store: MetadataStore
  baseUrl: string
  oidc: OidcSettings | undefined
  changes?: ChangeFeed
  /** The instance owner's user id (the break-glass account), if there is one. */
  instanceOwner(): Promise<string | undefined>
  log?: (message: string, error?: unknown) => void
}

/** The SSO plugins: `genericOAuth` for the instance-wide provider when configured, and `pathlight-sso`. */
export function ssoPlugins(options: SsoPluginOptions): BetterAuthPlugin[] {
  const { oidc } = options
  const plugins: BetterAuthPlugin[] = []
  if (oidc) {
    plugins.push(
      genericOAuth({
        config: [
          {
            providerId: OIDC_PROVIDER_ID,
            name: oidc.name,
            discoveryUrl: `${oidc.issuer}/.well-known/openid-configuration`,
            clientId: oidc.clientId,
            clientSecret: oidc.clientSecret,
            tokenEndpointAuth: { method: 'client_secret_basic' },
            scopes: ['openid', 'email', 'profile'],
            pkce: true,
            requireIdTokenVerification: true,
            postLogoutRedirectURI: `${options.baseUrl}/sign-in`,
          },
        ],
      }),
    )
  }
  plugins.push(pathlightSso(options))
  return plugins
}

/** The payload of an ID token Better Auth verified at the callback and stored on the account. */
function idTokenClaims(idToken: string): Record<string, unknown> {
  try {
    const payload: unknown = JSON.parse(
      Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8'),
    )
    return payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

const emailOf = (body: unknown): string | undefined =>
  body && typeof body === 'object' && 'email' in body && typeof body.email === 'string'
    ? body.email
    : undefined

/** The plugin of Pathlight's SSO rules (see the module comment). */
export function pathlightSso({
  store,
  baseUrl,
  oidc,
  changes,
  instanceOwner,
  log,
}: SsoPluginOptions): BetterAuthPlugin {
  const db = store.db
  const organizationProviders = createOrganizationProviders({
    db,
    baseUrl,
    allowLinking: oidc?.allowLinking ?? false,
    refused: async (organizationId, reason, email) => {
      await recordAudit(db, {
        organizationId,
        actorUserId: '',
        action: 'sso.refused',
        details: { reason, domain: emailDomainOf(email) ?? null },
      })
    },
  })
  /** Refuse a password path for a member of an SSO-only organization, the instance owner excepted. */
  const refusePassword = async (userId: string | undefined, email: string | undefined, reason: string) => {
    const user = userId
      ? await db.selectFrom('user').select('id').where('id', '=', userId).executeTakeFirst()
      : email
        ? await db
            .selectFrom('user')
            .select('id')
            .where('email', '=', email.trim().toLowerCase())
            .executeTakeFirst()
        : undefined
    if (!user || user.id === (await instanceOwner())) return
    const organizationId = await ssoOnlyOrganizationOf(db, user.id)
    if (!organizationId) return
    await recordAudit(db, {
      organizationId,
      actorUserId: user.id,
      action: 'sso.refused',
      details: { reason },
    })
    throw new APIError('FORBIDDEN', { ...SSO_REQUIRED })
  }

  return {
    id: 'pathlight-sso',
    endpoints: {
      /** `GET /api/auth/sso/config`: whether SSO is offered, and the provider's name for the button. */
      ssoConfig: createAuthEndpoint('/sso/config', { method: 'GET' }, async (ctx) => {
        const organizations = await hasOrganizationProviders(db)
        return ctx.json({
          enabled: oidc !== undefined || organizations,
          providerId: OIDC_PROVIDER_ID,
          name: oidc?.name ?? null,
          byEmail: organizations,
        })
      }),
      /**
       * `POST /api/auth/sso/provider-for {email}`: the provider that signs the address in, `{providerId,
       * name}`: the organization's owning its domain, else the instance-wide one; 404 `SSO_NOT_CONFIGURED`.
       */
      ssoProviderFor: createAuthEndpoint('/sso/provider-for', { method: 'POST' }, async (ctx) => {
        const email = emailOf(ctx.body)
        const domain = email ? emailDomainOf(email) : undefined
        if (!email || !domain || email.length > 320)
          throw new APIError('BAD_REQUEST', {
            code: 'INVALID_EMAIL',
            message: 'email: an e-mail address is required',
          })
        const organizationId = await organizationForEmail(db, email)
        if (organizationId) {
          const row = await db
            .selectFrom('organization_oidc')
            .select('name')
            .where('organization_id', '=', organizationId)
            .executeTakeFirst()
          return ctx.json({ providerId: organizationProviderId(organizationId), name: row?.name ?? null })
        }
        if (oidc) return ctx.json({ providerId: OIDC_PROVIDER_ID, name: oidc.name })
        throw new APIError('NOT_FOUND', {
          code: 'SSO_NOT_CONFIGURED',
          message: `No identity provider signs in addresses of ${domain}: sign in with your password.`,
        })
      }),
    },
    init: () => ({
      options: {
        account: {
          accountLinking: { enabled: oidc?.allowLinking ?? false, requireLocalEmailVerified: true },
        },
        onAPIError: { errorURL: `${baseUrl}/sign-in` },
      },
    }),
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === '/sign-in/email' || ctx.path === '/request-password-reset',
          handler: createAuthMiddleware(async (ctx) => {
            await refusePassword(
              undefined,
              emailOf(ctx.body),
              ctx.path === '/sign-in/email' ? 'password_sign_in' : 'password_reset',
            )
          }),
        },
        {
          matcher: (ctx) => ctx.path === '/reset-password',
          handler: createAuthMiddleware(async (ctx) => {
            const token = ctx.body?.token ?? ctx.query?.token
            if (typeof token !== 'string') return
            const row = await sql<{
              value: string
            }>`SELECT "value" FROM "verification" WHERE "identifier" = ${`reset-password:${token}`}`.execute(
              db,
            )
            await refusePassword(row.rows[0]?.value, undefined, 'password_reset')
          }),
        },
        {
          matcher: (ctx) => ctx.path === '/sign-in/social' && ctx.body?.provider === OIDC_PROVIDER_ID,
          handler: createAuthMiddleware(async (ctx) => {
            if (ctx.context.socialProviders.some((p) => p.id === OIDC_PROVIDER_ID)) return
            throw new APIError('SERVICE_UNAVAILABLE', {
              code: 'SSO_PROVIDER_UNAVAILABLE',
              message: `The identity provider (${oidc?.issuer}) cannot be reached; try again later.`,
            })
          }),
        },
        {
          matcher: (ctx) =>
            (ctx.path === '/sign-in/social' && organizationOfProviderId(ctx.body?.provider) !== undefined) ||
            (ctx.path === '/callback/:id' && organizationOfProviderId(ctx.params?.id) !== undefined),
          handler: createAuthMiddleware(async (ctx) => {
            const organizationId = organizationOfProviderId(
              ctx.path === '/sign-in/social' ? ctx.body?.provider : ctx.params?.id,
            ) as string
            const state = await organizationProviders.ensure(ctx.context, organizationId)
            if (ctx.path !== '/sign-in/social') return
            if (state.kind === 'none')
              throw new APIError('NOT_FOUND', {
                code: 'SSO_PROVIDER_NOT_FOUND',
                message: 'This organization has no identity provider.',
              })
            if (state.kind === 'unreachable')
              throw new APIError('SERVICE_UNAVAILABLE', {
                code: 'SSO_PROVIDER_UNAVAILABLE',
                message: `The identity provider (${state.issuer}) cannot be reached; try again later.`,
              })
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) =>
            ctx.path === '/callback/:id' &&
            (ctx.params?.id === OIDC_PROVIDER_ID || organizationOfProviderId(ctx.params?.id) !== undefined),
          handler: createAuthMiddleware(async (ctx) => {
            const providerId = ctx.params?.id as string
            const ownOrganization = organizationOfProviderId(providerId)
            if (!oidc && !ownOrganization) return
            const session = ctx.context.newSession
            try {
              if (!session) {
                // An organization's callback is audited only while it has a provider (not for any id sent).
                const organizationId = ownOrganization
                  ? (
                      await db
                        .selectFrom('organization_oidc')
                        .select('organization_id')
                        .where('organization_id', '=', ownOrganization)
                        .executeTakeFirst()
                    )?.organization_id
                  : await getSetting(db, SSO_ORGANIZATION_SETTING)
                const location = (ctx.context.returned as { headers?: Headers } | undefined)?.headers?.get?.(
                  'location',
                )
                const error = location ? new URL(location, baseUrl).searchParams.get('error') : null
                if (organizationId) {
                  await recordAudit(db, {
                    organizationId,
                    actorUserId: '',
                    action: 'sso.refused',
                    details: { reason: error ?? 'callback_failed' },
                  })
                }
                return
              }
              await afterSignIn(session.user.id, providerId, ctx.context.secret)
            } catch (error) {
              log?.('SSO role mapping failed', error)
            }
          }),
        },
      ],
    },
  }

  /** Role mapping and audit of a completed sign-in through `providerId`. */
  async function afterSignIn(userId: string, providerId: string, secret: string) {
    const ownOrganization = organizationOfProviderId(providerId)
    const settings = ownOrganization ? await loadOrganizationOidc(db, ownOrganization, secret) : oidc
    if (!settings) return
    const account = (await db
      .selectFrom('account' as never)
      .select(['idToken', 'createdAt'] as never[])
      .where('userId' as never, '=', userId as never)
      .where('providerId' as never, '=', providerId as never)
      .executeTakeFirst()) as { idToken: string | null; createdAt: string | Date } | undefined
    const user = await db
      .selectFrom('user')
      .select(['createdAt'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
    const claims = account?.idToken ? idTokenClaims(account.idToken) : {}
    const role = roleFromClaims(claims, settings)
    const organizationId =
      ownOrganization ?? (await ssoOrganizationId(db, (settings as OidcSettings).organization, userId))
    const change = await applySsoMembership({ db, changes }, organizationId, userId, role)
    // Linked now: the provider's account row is fresh, and the user is older than it.
    const accountAt = account ? new Date(account.createdAt).getTime() : 0
    const linked =
      account && Date.now() - accountAt < 30_000 && accountAt - new Date(user.createdAt).getTime() > 1000
    if (linked)
      await recordAudit(db, {
        organizationId,
        actorUserId: userId,
        action: 'sso.account_linked',
        details: { provider: providerId },
      })
    await recordAudit(db, {
      organizationId,
      actorUserId: userId,
      action: 'sso.signed_in',
      details: { provider: providerId, subject: claims.sub, role, membership: change.kind },
    })
  }
}
