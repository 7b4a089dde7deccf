/**
 * 010: two-factor sign-in (Better Auth's `twoFactor` plugin): `user.twoFactorEnabled`, and the
 * `twoFactor` table with one row per enrolled account (its TOTP secret and its backup codes, both
 * encrypted by Better Auth with the instance secret; `verified` once a first code confirmed the
 * enrolment; the failure count and lock of Better Auth's own per-account lockout). Columns, types and
 * indexes are those Better Auth's migration planner asks for, by dialect as in 001.
 */
import { type Kysely, sql } from 'kysely'
import type { MetadataMigration } from './index.js'

/** Adds `user.twoFactorEnabled` (false for existing accounts) and creates `twoFactor`. */
export const twoFactor: MetadataMigration = {
  name: '010-two-factor',
  async up(db: Kysely<unknown>, dialect) {
    const bool = dialect === 'postgres' ? 'boolean' : 'integer'
    const date = dialect === 'postgres' ? 'timestamptz' : 'date'

    await db.schema
      .alterTable('user')
      .addColumn('twoFactorEnabled', sql.raw(bool), (c) =>
        c.defaultTo(dialect === 'postgres' ? sql`false` : 0),
      )
      .execute()
    await db.schema
      .createTable('twoFactor')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('backupCodes', 'text', (c) => c.notNull())
      .addColumn('userId', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('verified', sql.raw(bool))
      .addColumn('failedVerificationCount', 'integer')
      .addColumn('lockedUntil', sql.raw(date))
      .execute()
    await db.schema.createIndex('twoFactor_secret_idx').on('twoFactor').column('secret').execute()
    await db.schema.createIndex('twoFactor_userId_idx').on('twoFactor').column('userId').execute()
  },
}
