/**
 * The metadata store: Kysely over SQLite (better-sqlite3, file `DATA_DIR/pathlight.db`, the default)
 * or PostgreSQL (`DATABASE_URL`). `openMetadataStore` connects and applies pending migrations.
 */
import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import {
  Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  PostgresDialect,
  SqliteDialect,
} from 'kysely'
import { type MetadataDialect, metadataMigrations } from './migrations/index.js'
import type { MetadataSchema } from './schema.js'

export type MetadataDb = Kysely<MetadataSchema>

/** An open metadata store. `dialect` tells dialect-aware code (Better Auth, upserts) what it runs on. */
export interface MetadataStore {
  db: MetadataDb
  dialect: MetadataDialect
  close(): Promise<void>
}

/** Where the metadata lives: a SQLite file (or ':memory:') or a PostgreSQL connection string. */
export type MetadataLocation = { sqlite: string } | { postgres: string }

/**
 * Open the store and migrate it to the latest version.
 * @throws when the database cannot be reached or a migration fails (the message names the migration)
 */
export async function openMetadataStore(location: MetadataLocation): Promise<MetadataStore> {
  let db: MetadataDb
  let dialect: MetadataDialect
  if ('sqlite' in location) {
    if (location.sqlite !== ':memory:') fs.mkdirSync(path.dirname(location.sqlite), { recursive: true })
    const sqlite = new Database(location.sqlite)
    sqlite.pragma('journal_mode = WAL')
    sqlite.pragma('synchronous = NORMAL')
    sqlite.pragma('foreign_keys = ON')
    sqlite.pragma('busy_timeout = 5000')
    db = new Kysely<MetadataSchema>({ dialect: new SqliteDialect({ database: sqlite }) })
    dialect = 'sqlite'
  } else {
    const { default: pg } = await import('pg')
    const pool = new pg.Pool({ connectionString: location.postgres, max: 10 })
    // An idle client whose connection the server ended (restart, failover) must not crash the process;
    // the pool replaces it on the next checkout.
    pool.on('error', (error) => console.error('PostgreSQL idle client error:', error.message))
    db = new Kysely<MetadataSchema>({ dialect: new PostgresDialect({ pool }) })
    dialect = 'postgres'
  }
  try {
    await migrateMetadata(db, dialect)
  } catch (error) {
    await db.destroy()
    throw error
  }
  return { db, dialect, close: () => db.destroy() }
}

async function migrateMetadata(db: MetadataDb, dialect: MetadataDialect): Promise<void> {
  const provider: MigrationProvider = {
    async getMigrations() {
      const entries: Record<string, Migration> = {}
      for (const migration of metadataMigrations) {
        entries[migration.name] = { up: (kysely) => migration.up(kysely, dialect) }
      }
      return entries
    },
  }
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown'
    throw new Error(`Metadata migration ${failed} failed: ${String(error)}`)
  }
}
