/**
 * Instance-wide settings kept in the metadata store (so every API node sees the same values):
 * the owner's user id, the auth secret and the anonymous-id secret when the operator set none, and
 * the address the service last started at.
 */
import crypto from 'node:crypto'
import type { MetadataDb } from './db.js'

/** Read a setting, or undefined. */
export async function getSetting(db: MetadataDb, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('instance_setting')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirst()
  return row?.value
}

/**
 * Set a setting unless it is already set (first writer wins across nodes).
 * @returns the value in force afterwards
 */
export async function setSettingOnce(db: MetadataDb, key: string, value: string): Promise<string> {
  await db
    .insertInto('instance_setting')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute()
  return (await getSetting(db, key)) ?? value
}

/** Set a setting, replacing its value (last writer wins). */
export async function setSetting(db: MetadataDb, key: string, value: string): Promise<void> {
  await db
    .insertInto('instance_setting')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute()
}

/**
 * The setting holding the URL `pathlight serve` last started at (BASE_URL, or the address it listened
 * on): what commands run beside the service (`pathlight reset-password`) put in their links when
 * BASE_URL is not set for them.
 */
export const SERVED_URL_SETTING = 'served_url'

/** A random secret (32 bytes, base64url) created on first use and shared by every node. */
export const getOrCreateSecret = (db: MetadataDb, key: string): Promise<string> =>
  setSettingOnce(db, key, crypto.randomBytes(32).toString('base64url'))
