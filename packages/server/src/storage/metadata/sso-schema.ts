/**
 * Row types of single sign-on (migration 017), merged into `MetadataSchema`. Better Auth's `account`
 * rows of SSO sign-ins are read with plain SQL (`auth/sso-roles.ts`), as Better Auth's tables are.
 */
import type { DbBool } from './schema.js'

export interface OrganizationSsoTable {
  organization_id: string
  /** 1: members sign in through SSO only (the instance owner keeps a password). */
  sso_only: DbBool
  updated_at: string
}

export interface SsoSchema {
  organization_sso: OrganizationSsoTable
}
