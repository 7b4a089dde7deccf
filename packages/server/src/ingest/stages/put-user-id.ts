import crypto from 'node:crypto'
import type { IngestDeps } from '../deps.js'
import type { Draft } from '../draft.js'
import { ok, type StageResult } from '../outcome.js'

/**
 * The visitor's id: the body's `user_id` when given, else an anonymous id, the first 16 hex digits of
 * SHA-256(salt, site, IP, user agent). With `saltUserIds` the salt changes every UTC day.
 */
export async function putUserId(draft: Draft, deps: IngestDeps): Promise<StageResult> {
  const given = draft.payload.user_id?.trim()
  if (given) {
    draft.row.user_id = given
    return ok
  }
  const salt = draft.site.saltUserIds ? await deps.salts.forDay(draft.now) : deps.salts.instance
  draft.row.user_id = crypto
    .createHash('sha256')
    .update(`${salt}\u0000${draft.site.siteId}\u0000${draft.ip}\u0000${draft.userAgent}`)
    .digest('hex')
    .slice(0, 16)
  return ok
}
