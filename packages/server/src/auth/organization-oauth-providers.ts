/**
 * The Better Auth providers of organizations' own identity providers (`organization-oidc.ts`), added
 * at runtime. Better Auth's `genericOAuth` builds its providers once, at start-up, into the auth
 * context's `socialProviders`, which the sign-in (`/sign-in/social`) and callback (`/callback/:id`)
 * endpoints search by id; the plugin's own discovery retry adds a provider to that list in a before
 * hook. This does the same for `org-<organizationId>`: before each of those requests it reads the
 * organization's row from the metadata store (so a provider saved on one node works on every node),
 * builds the provider with `genericOAuth`'s own builder (its `init` on a one-entry config: discovery,
 * PKCE, nonce, ID token verification against the JWKS) when the row changed since this node built it,
 * and puts it into the request's provider list. A removed provider is taken out of the list.
 *
 * The built provider accepts only addresses of the organization's domains (else the sign-in is
 * refused, `email_domain_not_owned`), and, where the instance allows account linking, never takes
 * over an existing account that has not signed in through it before (`account_exists`): the
 * organization's claim on its domains is not verified.
 */
import type { AuthContext, OAuthProvider } from 'better-auth'
import { genericOAuth } from 'better-auth/plugins'
import type { MetadataDb } from '../storage/metadata/db.js'
import { loadOrganizationOidc, type OrganizationOidc, organizationProviderId } from './organization-oidc.js'
import { emailDomainOf } from './public-mail-domains.js'

/** What `ensure` found: the provider is in the list, the organization has none, or discovery failed. */
export type ProviderState =
  | { kind: 'ready'; settings: OrganizationOidc }
  | { kind: 'none' }
  | { kind: 'unreachable'; issuer: string }

export interface OrganizationProviders {
  /** Put the organization's provider into `context.socialProviders` (see the module comment). */
  ensure(context: AuthContext, organizationId: string): Promise<ProviderState>
}

/**
 * @param refused called when a sign-in is refused by the domain or linking rule, with the reason
 */
export function createOrganizationProviders({
  db,
  baseUrl,
  allowLinking,
  refused,
}: {
  db: MetadataDb
  baseUrl: string
  allowLinking: boolean
  refused(organizationId: string, reason: string, email: string): Promise<void>
}): OrganizationProviders {
  const built = new Map<string, { updatedAt: string; provider: OAuthProvider; settings: OrganizationOidc }>()

  /** Refuse an address outside the organization's domains, or one that would link an existing account. */
  const admits = async (settings: OrganizationOidc, providerId: string, email: string | undefined) => {
    const domain = email ? emailDomainOf(email) : undefined
    if (!email || !domain || !settings.domains.includes(domain)) {
      await refused(settings.organizationId, 'email_domain_not_owned', email ?? '')
      return false
    }
    if (!allowLinking) return true
    const user = await db
      .selectFrom('user')
      .select('id')
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst()
    if (!user) return true
    const account = await db
      .selectFrom('account' as never)
      .select('id' as never)
      .where('userId' as never, '=', user.id as never)
      .where('providerId' as never, '=', providerId as never)
      .executeTakeFirst()
    if (account) return true
    await refused(settings.organizationId, 'account_exists', email)
    return false
  }

  async function build(context: AuthContext, settings: OrganizationOidc): Promise<OAuthProvider | undefined> {
    const providerId = organizationProviderId(settings.organizationId)
    const plugin = genericOAuth({
      config: [
        {
          providerId,
          name: settings.name,
          discoveryUrl: `${settings.issuer}/.well-known/openid-configuration`,
          clientId: settings.clientId,
          clientSecret: settings.clientSecret,
          tokenEndpointAuth: { method: 'client_secret_basic' },
          scopes: ['openid', 'email', 'profile'],
          pkce: true,
          requireIdTokenVerification: true,
          postLogoutRedirectURI: `${baseUrl}/sign-in`,
        },
      ],
    })
    const init = (await plugin.init({ ...context, socialProviders: [] } as never)) as
      | { context?: { socialProviders?: OAuthProvider[] } }
      | undefined
    const provider = init?.context?.socialProviders?.find((p) => p.id === providerId)
    if (!provider) return undefined
    const getUserInfo = provider.getUserInfo.bind(provider)
    provider.getUserInfo = async (tokens) => {
      const info = await getUserInfo(tokens)
      if (!info) return info
      return (await admits(settings, providerId, info.user.email ?? undefined)) ? info : null
    }
    // An ID token posted to `/sign-in/social` skips the code flow: not offered for these providers.
    provider.getUserInfoFromIdToken = async () => null
    return provider
  }

  return {
    async ensure(context, organizationId) {
      const providerId = organizationProviderId(organizationId)
      const list = context.socialProviders
      const drop = () => {
        const at = list.findIndex((p) => (p as { id?: string }).id === providerId)
        if (at >= 0) list.splice(at, 1)
      }
      const row = await db
        .selectFrom('organization_oidc')
        .select('updated_at')
        .where('organization_id', '=', organizationId)
        .executeTakeFirst()
      if (!row) {
        built.delete(organizationId)
        drop()
        return { kind: 'none' }
      }
      let entry = built.get(organizationId)
      if (entry?.updatedAt !== row.updated_at) {
        const settings = await loadOrganizationOidc(db, organizationId, context.secret)
        if (!settings) return { kind: 'none' }
        const provider = await build(context, settings)
        if (!provider) {
          drop()
          return { kind: 'unreachable', issuer: settings.issuer }
        }
        entry = { updatedAt: settings.updatedAt, provider, settings }
        built.set(organizationId, entry)
      }
      if (!list.includes(entry.provider)) {
        drop()
        list.unshift(entry.provider)
      }
      return { kind: 'ready', settings: entry.settings }
    },
  }
}
