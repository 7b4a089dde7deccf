/**
 * 019: per-organization OpenID Connect providers. `organization_oidc` holds one provider per
 * organization (issuer, client id, the client secret encrypted with the instance's auth secret, the
 * role claim and role map, the button's name); `organization_sso_domain` the e-mail domains it owns,
 * each owned by at most one organization (the primary key). Both go with their organization.
 */
import type { Kysely } from 'kysely'
import type { MetadataMigration } from './index.js'

/** Creates `organization_oidc` and `organization_sso_domain`. */
export const organizationOidc: MetadataMigration = {
  name: '019-organization-oidc',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('organization_oidc')
      .addColumn('organization_id', 'text', (c) =>
        c.primaryKey().references('organization.id').onDelete('cascade'),
      )
      .addColumn('issuer', 'text', (c) => c.notNull())
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('client_secret', 'text', (c) => c.notNull())
      .addColumn('role_claim', 'text', (c) => c.notNull())
      .addColumn('role_map', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('organization_sso_domain')
      .addColumn('domain', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) =>
        c.notNull().references('organization.id').onDelete('cascade'),
      )
      .execute()
    await db.schema
      .createIndex('organization_sso_domain_organization')
      .on('organization_sso_domain')
      .column('organization_id')
      .execute()
  },
}
