import { bearerToken } from '../../auth/bearer-token.js'
import { scopeAllows } from '../../auth/key-scope.js'
import type { IngestDeps } from '../deps.js'
import type { Draft } from '../draft.js'
import { ok, reject, type StageResult } from '../outcome.js'

/**
 * Optional API key: no Authorization header passes unauthenticated; a bearer key that is unknown (or
 * expired) is 401; a key whose owner is not a member of the site's organization is 403, and so is a
 * key whose scope does not allow tracking (`read`). A valid key skips the domain and bot checks. (The
 * per-key rate limit is applied in front of the pipeline by the HTTP layer.)
 */
export async function authenticateKey(draft: Draft, deps: IngestDeps): Promise<StageResult> {
  const header = draft.incoming.authorization
  if (header === undefined || header === '') return ok
  const token = bearerToken(header)
  const key = token ? await deps.apiKeys.verify(token) : null
  if (!key) return reject({ kind: 'invalid_api_key' })
  if (!scopeAllows(key.scope, 'track')) return reject({ kind: 'key_scope', scope: key.scope })
  if ((await deps.roleIn(key.userId, draft.site.organizationId)) === null)
    return reject({ kind: 'access_denied' })
  draft.authenticated = true
  return ok
}
