import { scopeAllows } from '../../auth/key-scope.js'
import type { IngestDeps } from '../deps.js'
import type { Draft } from '../draft.js'
import { ok, reject, type StageResult } from '../outcome.js'

/**
 * Optional API key (spec part 4, tracking rules 1-2): no Authorization header passes unauthenticated;
 * a bearer key that is unknown is 401; a key whose owner is not a member of the site's organization
 * is 403, and so is a key whose scope does not allow tracking (`read`). (The per-key rate limit is applied in front of the pipeline by the HTTP layer.)
 */
export async function authenticateKey(draft: Draft, deps: IngestDeps): Promise<StageResult> {
  const header = draft.incoming.authorization
  if (header === undefined || header === '') return ok
  const match = /^Bearer\s+(\S+)$/i.exec(header)
  const key = match?.[1] ? await deps.apiKeys.verify(match[1]) : null
  if (!key) return reject({ kind: 'invalid_api_key' })
  if (!scopeAllows(key.scope, 'track')) return reject({ kind: 'key_scope', scope: key.scope })
  if ((await deps.roleIn(key.userId, draft.site.organizationId)) === null)
    return reject({ kind: 'access_denied' })
  draft.authenticated = true
  return ok
}
