/**
 * 001: accounts (Better Auth's tables), organizations, members, sites, API keys, user-id salts.
 * Types differ by dialect only where they must: booleans (SQLite integer, PostgreSQL boolean),
 * Better Auth's dates (SQLite `date`, PostgreSQL `timestamptz`) and the site's serial id.
 */
import { type Kysely, sql } from 'kysely'
import type { MetadataMigration } from './index.js'

export const initial: MetadataMigration = {
  name: '001-initial',
  async up(db: Kysely<unknown>, dialect) {
    const bool = dialect === 'postgres' ? 'boolean' : 'integer'
    const date = dialect === 'postgres' ? 'timestamptz' : 'date'

    await db.schema
      .createTable('user')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('emailVerified', sql.raw(bool), (c) => c.notNull())
      .addColumn('image', 'text')
      .addColumn('createdAt', sql.raw(date), (c) => c.notNull())
      .addColumn('updatedAt', sql.raw(date), (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('session')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('expiresAt', sql.raw(date), (c) => c.notNull())
      .addColumn('token', 'text', (c) => c.notNull().unique())
      .addColumn('createdAt', sql.raw(date), (c) => c.notNull())
      .addColumn('updatedAt', sql.raw(date), (c) => c.notNull())
      .addColumn('ipAddress', 'text')
      .addColumn('userAgent', 'text')
      .addColumn('userId', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .execute()
    await db.schema
      .createTable('account')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('accountId', 'text', (c) => c.notNull())
      .addColumn('providerId', 'text', (c) => c.notNull())
      .addColumn('userId', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('accessToken', 'text')
      .addColumn('refreshToken', 'text')
      .addColumn('idToken', 'text')
      .addColumn('accessTokenExpiresAt', sql.raw(date))
      .addColumn('refreshTokenExpiresAt', sql.raw(date))
      .addColumn('scope', 'text')
      .addColumn('password', 'text')
      .addColumn('createdAt', sql.raw(date), (c) => c.notNull())
      .addColumn('updatedAt', sql.raw(date), (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('verification')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('identifier', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('expiresAt', sql.raw(date), (c) => c.notNull())
      .addColumn('createdAt', sql.raw(date), (c) => c.notNull())
      .addColumn('updatedAt', sql.raw(date), (c) => c.notNull())
      .execute()
    await db.schema.createIndex('session_userId_idx').on('session').column('userId').execute()
    await db.schema.createIndex('account_userId_idx').on('account').column('userId').execute()
    await db.schema
      .createIndex('verification_identifier_idx')
      .on('verification')
      .column('identifier')
      .execute()

    await db.schema
      .createTable('instance_setting')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute()

    await db.schema
      .createTable('organization')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('member')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) =>
        c.notNull().references('organization.id').onDelete('cascade'),
      )
      .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('member_organization_user_unique', ['organization_id', 'user_id'])
      .execute()
    await db.schema.createIndex('member_user_idx').on('member').column('user_id').execute()

    await db.schema
      .createTable('site')
      .addColumn('site_id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('organization_id', 'text', (c) =>
        c.notNull().references('organization.id').onDelete('cascade'),
      )
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('public', sql.raw(bool), (c) => c.notNull())
      .addColumn('salt_user_ids', sql.raw(bool), (c) => c.notNull())
      .addColumn('block_bots', sql.raw(bool), (c) => c.notNull())
      .addColumn('session_replay', sql.raw(bool), (c) => c.notNull())
      .addColumn('web_vitals', sql.raw(bool), (c) => c.notNull())
      .addColumn('track_errors', sql.raw(bool), (c) => c.notNull())
      .addColumn('track_outbound', sql.raw(bool), (c) => c.notNull())
      .addColumn('track_url_params', sql.raw(bool), (c) => c.notNull())
      .addColumn('excluded_ips', 'text', (c) => c.notNull())
      .addColumn('excluded_countries', 'text', (c) => c.notNull())
      .addColumn('monthly_pageview_limit', 'integer')
      .execute()
    await db.schema.createIndex('site_organization_idx').on('site').column('organization_id').execute()

    await db.schema
      .createTable('api_key')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('prefix', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .execute()
    await db.schema.createIndex('api_key_user_idx').on('api_key').column('user_id').execute()

    await db.schema
      .createTable('user_id_salt')
      .addColumn('day', 'text', (c) => c.primaryKey())
      .addColumn('salt', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
  },
}
