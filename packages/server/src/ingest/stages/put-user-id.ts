import crypto from 'node:crypto'
import type { IngestDeps } from '../deps.js'
import type { Draft } from '../draft.js'
import { ok, type StageResult } from '../outcome.js'

/**
 * The visitor's id: the body's `user_id` when given, else the user the anonymous visitor identified as
 * (`POST /api/identify`, `deps.visitorLinks`), else the anonymous id, the first 16 hex digits of
 * SHA-256(salt, site, IP, user agent). With `saltUserIds` the salt changes every UTC day. An identified
 * visitor (linked) keeps the session key of its anonymous id, so identifying does not start a new
 * session; `draft.identified` marks a user id the site gave (directly or through a link).
 */
export async function putUserId(draft: Draft, deps: IngestDeps): Promise<StageResult> {
  const given = draft.payload.user_id?.trim()
  if (given && !deps.visitorLinks) {
    draft.row.user_id = given
    draft.identified = true
    return ok
  }
  const anonymous = await anonymousVisitorId(draft, deps)
  const linked = deps.visitorLinks ? await deps.visitorLinks.userOf(draft.site.siteId, anonymous) : null
  if (linked !== null && (!given || given === linked)) {
    draft.row.user_id = linked
    draft.identified = true
    draft.sessionKey = `${draft.site.siteId}:${anonymous}`
    return ok
  }
  draft.row.user_id = given || anonymous
  draft.identified = Boolean(given)
  return ok
}

/** The anonymous visitor id of the draft's site, IP and user agent (see `putUserId`). */
export async function anonymousVisitorId(
  draft: Pick<Draft, 'site' | 'now' | 'ip' | 'userAgent'>,
  deps: Pick<IngestDeps, 'salts'>,
): Promise<string> {
  const salt = draft.site.saltUserIds ? await deps.salts.forDay(draft.now) : deps.salts.instance
  return crypto
    .createHash('sha256')
    .update(`${salt}\u0000${draft.site.siteId}\u0000${draft.ip}\u0000${draft.userAgent}`)
    .digest('hex')
    .slice(0, 16)
}
