/**
 * Private link keys: a secret that lets anyone holding it read one site's analytics (header
 * `X-Private-Key`), and nothing else. 256 random bits, base64url. Generating replaces any previous key;
 * revoking removes it; both take effect on the next request (keys are not cached).
 */
import crypto from 'node:crypto'
import type { MetadataDb } from '../storage/metadata/db.js'

export const privateLinkActions = ['generate_private_link_key', 'revoke_private_link_key'] as const
export type PrivateLinkAction = (typeof privateLinkActions)[number]

/** @returns the new key */
export async function generatePrivateLinkKey(db: MetadataDb, siteId: number): Promise<string> {
  const key = crypto.randomBytes(32).toString('base64url')
  await db.updateTable('site').set({ private_link_key: key }).where('site_id', '=', siteId).execute()
  return key
}

export async function revokePrivateLinkKey(db: MetadataDb, siteId: number): Promise<void> {
  await db.updateTable('site').set({ private_link_key: null }).where('site_id', '=', siteId).execute()
}

/** Constant-time comparison of a presented key with the site's current one. */
export function matchesPrivateLinkKey(stored: string | null, presented: string | undefined): boolean {
  if (!stored || !presented) return false
  const a = Buffer.from(stored)
  const b = Buffer.from(presented)
  return a.length === b.length && crypto.timingSafeEqual(a, b)
}
