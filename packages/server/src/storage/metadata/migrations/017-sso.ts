/**
 * 017: single sign-on. `organization_sso` holds an organization's SSO settings: `sso_only` (1: its
 * members sign in through SSO only; password sign-in and reset are refused for them, the instance owner
 * excepted); it goes with its organization. The instance-wide provider is configured from the
 * environment and has no row. Better Auth's own OAuth accounts use its `account` table (001).
 */
import type { Kysely } from 'kysely'
import type { MetadataMigration } from './index.js'

/** Creates `organization_sso`. */
export const sso: MetadataMigration = {
  name: '017-sso',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('organization_sso')
      .addColumn('organization_id', 'text', (c) =>
        c.primaryKey().references('organization.id').onDelete('cascade'),
      )
      .addColumn('sso_only', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
  },
}
