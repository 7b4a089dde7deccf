import { bearerToken } from '../../auth/bearer-token.js'
import { scopeAllows } from '../../auth/key-scope.js'
import type { IngestDeps } from '../deps.js'
import type { Draft } from '../draft.js'
import { ok, reject, type StageResult } from '../outcome.js'

/**
 * Optional API key: no Authorization header passes unauthenticated; a bearer key that is unknown (or
 * expired) is 401; a key whose owner is not a member of the site's organization is 403, and so is a
 * key whose scope does not allow tracking (`read`). A valid key skips the domain and bot checks, and
 * its body's `ip_address` and `user_agent` replace the transport's. (The per-key rate limit is applied
 * in front of the pipeline by the HTTP layer.)
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
  putVisitorTransport(draft)
  return ok
}

/**
 * A server tracking on behalf of its visitors names their address and user agent in the body
 * (`ip_address`, `user_agent`); only a request authenticated by an API key may, because a browser
 * choosing its own would pick its country, pass IP exclusions and the bot filter. Keyless requests
 * keep the socket's address (or a trusted proxy's) and the User-Agent header.
 */
function putVisitorTransport(draft: Draft): void {
  if (draft.payload.ip_address) draft.ip = draft.payload.ip_address
  if (draft.payload.user_agent !== undefined) draft.userAgent = draft.payload.user_agent
}
