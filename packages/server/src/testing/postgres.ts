/**
 * Test support: a throw-away PostgreSQL database on the local server (TEST_POSTGRES_URL, default
 * postgres://postgres@127.0.0.1:5432/postgres), created per test file and dropped afterwards.
 */
import crypto from 'node:crypto'

export const adminPostgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

/** @returns the new database's URL and a function that drops it */
export async function createTempDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  // Loaded here: every file that opens a test instance imports this module, most never on PostgreSQL.
  const { default: pg } = await import('pg')
  const name = `pathlight_test_${crypto.randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminPostgresUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(adminPostgresUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminPostgresUrl })
      await client.connect()
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await client.end()
    },
  }
}
