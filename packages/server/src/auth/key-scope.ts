/**
 * What an API key's scope lets it do:
 * - `track`: send events (`POST /api/track`) and nothing else; what a server-side tracking client needs,
 *   and harmless to the account if it leaks from a backend;
 * - `read`: reports, the v1 API and every other read (GET), but no tracking and no change;
 * - `logs`: send a site's access log (`POST /api/sites/{siteId}/logs`) and nothing else, for a log
 *   shipper on the web server;
 * - `full`: everything its user may do (the scope of keys created before scopes existed);
 * - `mcp:read`: what an AI assistant needs to read through `/api/mcp` (`mcp/`): reads like `read`;
 * - `mcp:write`: the MCP server's write tools as well (creating annotations, segments, goals): reads
 *   and changes like `full`, with the user's role deciding which changes (admin or owner for those).
 * Only the two `mcp:` scopes open `/api/mcp`. OAuth access tokens of MCP clients verify as one of them.
 * Session cookies are not keys and are not scoped.
 */
import type { KeyUse } from '@pathlight/protocol'
import { API_KEY_SCOPES } from '@pathlight/protocol'
import { forbidden } from '../shared/errors.js'

export { API_KEY_SCOPES }

export type ApiKeyScope = (typeof API_KEY_SCOPES)[number]

/** What a request does with a key: send events, read, or change something (the contracts' `KeyUse`). */
export type { KeyUse }

const allowed: Record<ApiKeyScope, readonly KeyUse[]> = {
  track: ['track'],
  read: ['read'],
  logs: ['logs'],
  full: ['track', 'read', 'write', 'logs'],
  'mcp:read': ['read'],
  'mcp:write': ['read', 'write'],
}

/** The scopes that open the MCP server (`/api/mcp`), and the one its write tools need. */
export const MCP_SCOPES: readonly ApiKeyScope[] = ['mcp:read', 'mcp:write']

const described: Record<KeyUse, string> = {
  track: 'sending events',
  read: 'reading',
  write: 'changes',
  logs: 'sending server logs',
}

/** Whether a key of `scope` may be used for `use`. */
export const scopeAllows = (scope: ApiKeyScope, use: KeyUse): boolean => allowed[scope].includes(use)

/**
 * @throws AppError 403 `This API key's scope (track) does not allow reading` when the scope does not
 * allow the use
 */
export function assertScopeAllows(scope: ApiKeyScope, use: KeyUse): void {
  if (!scopeAllows(scope, use)) {
    throw forbidden(`This API key's scope (${scope}) does not allow ${described[use]}`)
  }
}
