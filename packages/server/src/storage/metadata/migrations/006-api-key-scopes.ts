/**
 * 006: scoped API keys (`auth/key-scope.ts`). `scope` is `track`, `read` or `full`; keys that existed
 * before keep what they could do (`full`). `expires_at` (ISO 8601 UTC) is null for keys that never expire.
 */
import type { Kysely } from 'kysely'
import type { MetadataMigration } from './index.js'

/** Adds `api_key.scope` (default 'full') and `api_key.expires_at`. */
export const apiKeyScopes: MetadataMigration = {
  name: '006-api-key-scopes',
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('api_key')
      .addColumn('scope', 'text', (c) => c.notNull().defaultTo('full'))
      .execute()
    await db.schema.alterTable('api_key').addColumn('expires_at', 'text').execute()
  },
}
