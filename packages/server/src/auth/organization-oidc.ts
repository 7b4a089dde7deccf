/**
 * Per-organization OpenID Connect providers (tables `organization_oidc` and `organization_sso_domain`,
 * migration 019). An organization's owner sets one provider (issuer, client id and secret, role claim,
 * role map, the button's name) and the e-mail domains it owns; "Sign in with SSO" sends an address of
 * those domains to it (`sso-plugin.ts`), and its users' memberships and roles map into that
 * organization. The provider is Better Auth's `genericOAuth` provider `org-<organizationId>`, built
 * from the row on any node (`organization-oauth-providers.ts`), so a provider saved on one node works
 * on every node sharing the metadata store.
 *
 * Rules at saving: the issuer must answer discovery (`<issuer>/.well-known/openid-configuration`
 * naming itself as `issuer`, with authorization, token and JWKS endpoints), else 400 naming `issuer`;
 * a public mail domain (`public-mail-domains.ts`) is refused (400 naming `domains`), and so is a domain
 * another organization owns (409 naming `domains`). An issuer that resolves to a loopback, private or
 * link-local address is refused (400 naming `issuer`) unless SSO_ALLOW_PRIVATE_ISSUERS is set, as webhook
 * URLs are (`webhooks/url-guard.ts`). Ownership of a domain is not verified (no DNS
 * record is checked). The client secret is stored encrypted with the instance's auth secret
 * (Better Auth's `symmetricEncrypt`, as two-factor secrets are) and never answered. Changes are
 * audited (`sso.provider_changed`, `sso.provider_removed`).
 */
import type { Role, ssoProviderAnswer, ssoProviderInput } from '@pathlight/protocol'
import { symmetricDecrypt, symmetricEncrypt } from 'better-auth/crypto'
import type { z } from 'zod'
import { recordAudit } from '../audit/audit-log.js'
import { AppError } from '../shared/errors.js'
import { isoNow } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { checkWebhookUrl } from '../webhooks/url-guard.js'
import { emailDomainOf, isPublicMailDomain } from './public-mail-domains.js'

/** The Better Auth provider id of an organization's provider: `org-<organizationId>`. */
export const organizationProviderId = (organizationId: string) => `org-${organizationId}`

/** The organization of an `org-<organizationId>` provider id; undefined for any other id. */
export const organizationOfProviderId = (providerId: unknown): string | undefined =>
  typeof providerId === 'string' && providerId.startsWith('org-') && providerId.length > 4
    ? providerId.slice(4)
    : undefined

/** An organization's provider with its secret decrypted, as sign-in uses it. */
export interface OrganizationOidc {
  organizationId: string
  issuer: string
  clientId: string
  clientSecret: string
  roleClaim: string
  roleMap: ReadonlyMap<string, Role>
  /** Lowercase e-mail domains. */
  domains: readonly string[]
  name: string
  /** ISO time of the last change: a node rebuilds its provider when it differs. */
  updatedAt: string
}

export type SsoProviderAnswer = z.infer<typeof ssoProviderAnswer>
export type SsoProviderInput = z.output<typeof ssoProviderInput>

/** Check an issuer by discovery. @throws Error with the reason when it does not answer as an issuer */
export type DiscoverIssuer = (issuer: string) => Promise<void>

const field = (status: number, name: string, message: string, subject = 'identity provider') =>
  new AppError(status, `Invalid ${subject}: ${name}: ${message}`, {
    fieldErrors: { [name]: [message] },
    formErrors: [],
  })

const parseRoleMap = (text: string): [string, Role][] => {
  try {
    const value: unknown = JSON.parse(text)
    return Array.isArray(value) ? (value as [string, Role][]) : []
  } catch {
    return []
  }
}

/**
 * Discovery as the plugin does it: `<issuer>/.well-known/openid-configuration` answering JSON within
 * `timeoutMs` that names `issuer` itself and has `authorization_endpoint`, `token_endpoint` and `jwks_uri`.
 */
export async function discoverIssuer(issuer: string, timeoutMs = 5000): Promise<void> {
  let answer: Response
  try {
    answer = await fetch(`${issuer}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    })
  } catch (error) {
    throw new Error(
      `discovery at ${issuer}/.well-known/openid-configuration failed (${(error as Error).message})`,
    )
  }
  if (!answer.ok)
    throw new Error(`discovery at ${issuer}/.well-known/openid-configuration answered ${answer.status}`)
  const document = (await answer.json().catch(() => null)) as Record<string, unknown> | null
  if (!document || typeof document !== 'object') throw new Error('the discovery document is not JSON')
  if (typeof document.issuer !== 'string' || document.issuer.replace(/\/$/, '') !== issuer)
    throw new Error(`the discovery document names issuer ${JSON.stringify(document.issuer)}, not ${issuer}`)
  for (const key of ['authorization_endpoint', 'token_endpoint', 'jwks_uri']) {
    if (typeof document[key] !== 'string') throw new Error(`the discovery document has no ${key}`)
  }
}

/** The callback (redirect) URI an organization registers at its provider. */
export const organizationCallbackUrl = (baseUrl: string, organizationId: string) =>
  `${baseUrl}/api/auth/callback/${organizationProviderId(organizationId)}`

async function domainsOf(db: MetadataDb, organizationId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('organization_sso_domain')
    .select('domain')
    .where('organization_id', '=', organizationId)
    .orderBy('domain')
    .execute()
  return rows.map((r) => r.domain)
}

/** The organization's provider as the API answers it (no secret), or null. */
export async function getSsoProvider(
  db: MetadataDb,
  organizationId: string,
  baseUrl: string,
): Promise<SsoProviderAnswer> {
  const callbackUrl = organizationCallbackUrl(baseUrl, organizationId)
  const row = await db
    .selectFrom('organization_oidc')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .executeTakeFirst()
  if (!row) return { provider: null, callbackUrl }
  return {
    callbackUrl,
    provider: {
      providerId: organizationProviderId(organizationId),
      callbackUrl,
      issuer: row.issuer,
      clientId: row.client_id,
      roleClaim: row.role_claim,
      roleMap: parseRoleMap(row.role_map).map(([group, role]) => ({ group, role })),
      domains: await domainsOf(db, organizationId),
      name: row.name,
      updatedAt: row.updated_at,
    },
  }
}

/**
 * Set the organization's provider (see the module comment for the rules).
 * @param secret the instance's auth secret, the key of the client secret's encryption
 * @throws AppError 400 naming `issuer`, `clientSecret` or `domains`; 409 naming `domains`
 */
export async function setSsoProvider(
  deps: {
    db: MetadataDb
    secret: string
    baseUrl: string
    discover?: DiscoverIssuer
    /** Accept an issuer on a loopback, private or link-local address (SSO_ALLOW_PRIVATE_ISSUERS). */
    allowPrivateIssuers?: boolean
  },
  organizationId: string,
  actorUserId: string,
  input: SsoProviderInput,
): Promise<SsoProviderAnswer> {
  const { db } = deps
  const issuer = input.issuer.replace(/\/$/, '')
  const domains = [...new Set(input.domains)].sort()
  const publicDomain = domains.find(isPublicMailDomain)
  if (publicDomain)
    throw field(
      400,
      'domains',
      `${publicDomain} is a public mail domain; name your organization's own domain`,
    )
  const taken = await db
    .selectFrom('organization_sso_domain')
    .select('domain')
    .where('domain', 'in', domains)
    .where('organization_id', '!=', organizationId)
    .executeTakeFirst()
  if (taken) throw field(409, 'domains', `${taken.domain} is already owned by another organization`)
  const existing = await db
    .selectFrom('organization_oidc')
    .select('client_secret')
    .where('organization_id', '=', organizationId)
    .executeTakeFirst()
  if (!existing && input.clientSecret === undefined)
    throw field(400, 'clientSecret', 'required when the organization has no provider yet')
  try {
    await checkWebhookUrl(issuer, { allowPrivate: deps.allowPrivateIssuers ?? false })
  } catch (error) {
    throw field(400, 'issuer', `the issuer ${(error as Error).message}`)
  }
  try {
    await (deps.discover ?? discoverIssuer)(issuer)
  } catch (error) {
    throw field(400, 'issuer', (error as Error).message)
  }
  const clientSecret =
    input.clientSecret === undefined
      ? (existing?.client_secret as string)
      : await symmetricEncrypt({ key: deps.secret, data: input.clientSecret })
  const values = {
    issuer,
    client_id: input.clientId,
    client_secret: clientSecret,
    role_claim: input.roleClaim,
    role_map: JSON.stringify(input.roleMap.map((m) => [m.group, m.role])),
    name: input.name,
    updated_at: isoNow(),
  }
  try {
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('organization_oidc')
        .values({ organization_id: organizationId, ...values })
        .onConflict((oc) => oc.column('organization_id').doUpdateSet(values))
        .execute()
      await trx.deleteFrom('organization_sso_domain').where('organization_id', '=', organizationId).execute()
      await trx
        .insertInto('organization_sso_domain')
        .values(domains.map((domain) => ({ domain, organization_id: organizationId })))
        .execute()
      await recordAudit(trx, {
        organizationId,
        actorUserId,
        action: 'sso.provider_changed',
        details: {
          issuer,
          clientId: input.clientId,
          clientSecretChanged: input.clientSecret !== undefined,
          roleClaim: input.roleClaim,
          roleMap: input.roleMap,
          domains,
          name: input.name,
        },
      })
    })
  } catch (error) {
    // Another organization took one of the domains between the check and the write.
    const now = await db
      .selectFrom('organization_sso_domain')
      .select('domain')
      .where('domain', 'in', domains)
      .where('organization_id', '!=', organizationId)
      .executeTakeFirst()
    if (now) throw field(409, 'domains', `${now.domain} is already owned by another organization`)
    throw error
  }
  return getSsoProvider(db, organizationId, deps.baseUrl)
}

/** Remove the organization's provider and release its domains, audited when there was one. */
export async function removeSsoProvider(
  db: MetadataDb,
  organizationId: string,
  actorUserId: string,
  baseUrl: string,
): Promise<SsoProviderAnswer> {
  await db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('organization_oidc')
      .where('organization_id', '=', organizationId)
      .executeTakeFirst()
    await trx.deleteFrom('organization_sso_domain').where('organization_id', '=', organizationId).execute()
    if (Number(removed.numDeletedRows) > 0)
      await recordAudit(trx, { organizationId, actorUserId, action: 'sso.provider_removed', details: {} })
  })
  return getSsoProvider(db, organizationId, baseUrl)
}

/** The organization's provider with its secret decrypted; undefined when it has none. */
export async function loadOrganizationOidc(
  db: MetadataDb,
  organizationId: string,
  secret: string,
): Promise<OrganizationOidc | undefined> {
  const row = await db
    .selectFrom('organization_oidc')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .executeTakeFirst()
  if (!row) return undefined
  return {
    organizationId,
    issuer: row.issuer,
    clientId: row.client_id,
    clientSecret: await symmetricDecrypt({ key: secret, data: row.client_secret }),
    roleClaim: row.role_claim,
    roleMap: new Map(parseRoleMap(row.role_map)),
    domains: await domainsOf(db, organizationId),
    name: row.name,
    updatedAt: row.updated_at,
  }
}

/** The organization whose provider owns the address's domain, if any. */
export async function organizationForEmail(db: MetadataDb, email: string): Promise<string | undefined> {
  const domain = emailDomainOf(email)
  if (!domain) return undefined
  const row = await db
    .selectFrom('organization_sso_domain')
    .innerJoin(
      'organization_oidc',
      'organization_oidc.organization_id',
      'organization_sso_domain.organization_id',
    )
    .select('organization_sso_domain.organization_id')
    .where('organization_sso_domain.domain', '=', domain)
    .executeTakeFirst()
  return row?.organization_id
}

/** Whether any organization has its own provider (the sign-in page then asks the address first). */
export async function hasOrganizationProviders(db: MetadataDb): Promise<boolean> {
  const row = await db.selectFrom('organization_oidc').select('organization_id').limit(1).executeTakeFirst()
  return row !== undefined
}
