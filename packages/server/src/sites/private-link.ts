/**
 * Private link keys: a secret that lets anyone holding it read one site's analytics (header
 * `X-Private-Key`), and nothing else. 256 random bits, base64url. Generating replaces any previous key;
 * revoking removes it; both take effect on the next request (keys are not cached), are audited
 * (`private_link.generated` / `private_link.revoked`) and announced as a site change.
 */
import crypto from 'node:crypto'
import type { PrivateLinkBody } from '@pathlight/protocol'
import { recordAudit } from '../audit/audit-log.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { SiteRow } from './site.js'

/**
 * Generate or revoke the site's key, as the parsed `body.action` says, on behalf of `actorUserId`.
 * @returns the new key, or null after a revocation
 */
export async function changePrivateLink(
  deps: { db: MetadataDb; changes: ChangeFeed },
  site: SiteRow,
  actorUserId: string,
  body: PrivateLinkBody,
): Promise<string | null> {
  const generate = body.action === 'generate_private_link_key'
  const key = generate ? crypto.randomBytes(32).toString('base64url') : null
  await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable('site').set({ private_link_key: key }).where('site_id', '=', site.site_id).execute()
    await recordAudit(trx, {
      organizationId: site.organization_id,
      siteId: site.site_id,
      actorUserId,
      action: generate ? 'private_link.generated' : 'private_link.revoked',
    })
  })
  await deps.changes.announce({ kind: 'site', siteId: site.site_id })
  return key
}

/** Constant-time comparison of a presented key with the site's current one. */
export function matchesPrivateLinkKey(stored: string | null, presented: string | undefined): boolean {
  if (!stored || !presented) return false
  const a = Buffer.from(stored)
  const b = Buffer.from(presented)
  return a.length === b.length && crypto.timingSafeEqual(a, b)
}
