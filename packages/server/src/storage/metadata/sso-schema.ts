/**
 * Row types of single sign-on (migrations 017 and 019), merged into `MetadataSchema`. Better Auth's `account`
 * rows of SSO sign-ins are read with plain SQL (`auth/sso-roles.ts`), as Better Auth's tables are.
 */
import type { DbBool } from './schema.js'

export interface OrganizationSsoTable {
  organization_id: string
  /** 1: members sign in through SSO only (the instance owner keeps a password). */
  sso_only: DbBool
  updated_at: string
}

/** An organization's own OpenID Connect provider (migration 019). */
export interface OrganizationOidcTable {
  organization_id: string
  issuer: string
  client_id: string
  /** Encrypted with the instance's auth secret (Better Auth's `symmetricEncrypt`). */
  client_secret: string
  role_claim: string
  /** JSON: `[group, role][]`. */
  role_map: string
  name: string
  updated_at: string
}

/** An e-mail domain and the organization whose provider signs its addresses in (migration 019). */
export interface OrganizationSsoDomainTable {
  domain: string
  organization_id: string
}

export interface SsoSchema {
  organization_sso: OrganizationSsoTable
  organization_oidc: OrganizationOidcTable
  organization_sso_domain: OrganizationSsoDomainTable
}
