/**
 * Who calls the MCP server: the bearer token of `Authorization: Bearer <token>`, an API key of scope
 * `mcp:read` or `mcp:write`, or an OAuth access token of an MCP client (which verifies as one of those
 * scopes, `auth/mcp-oauth-tokens.ts`). Answered before any MCP message is read: 401 with a
 * `WWW-Authenticate` header naming the protected resource metadata (RFC 9728), which is how an MCP
 * client finds the OAuth server, or 403 for a key of another scope.
 */
import type { FastifyRequest } from 'fastify'
import type { VerifiedKey } from '../auth/api-keys.js'
import { bearerToken } from '../auth/bearer-token.js'
import { type ApiKeyScope, MCP_SCOPES } from '../auth/key-scope.js'
import { AppError, forbidden } from '../shared/errors.js'

/** A verified MCP caller: the user, the key or OAuth client, and whether write tools are open. */
export interface McpCaller {
  userId: string
  /** The API key's id, or `oauth:<client id>` for an OAuth access token. */
  keyId: string
  scope: ApiKeyScope
  /** The Authorization header as presented: every tool's inner request carries it. */
  authorization: string
  /** True with `mcp:write`: the write tools are listed and may be called. */
  canWrite: boolean
}

/** The URL of the protected resource metadata of `/api/mcp` (RFC 9728 §3.1). */
export const resourceMetadataUrl = (baseUrl: string) =>
  `${baseUrl}/.well-known/oauth-protected-resource/api/mcp`

/**
 * @param verify the key verification (`ApiKeys.verify`, OAuth tokens included)
 * @throws AppError 401 (with `WWW-Authenticate`) without a valid token, 403 for a scope that is not an
 * `mcp:` one
 */
export async function mcpCallerOf(
  request: FastifyRequest,
  verify: (token: string) => Promise<VerifiedKey | null>,
  baseUrl: string,
): Promise<McpCaller> {
  const authorization = request.headers.authorization
  const token = bearerToken(authorization)
  const key = token === undefined ? null : await verify(token)
  if (!key || authorization === undefined) {
    throw new AppError(
      401,
      'The MCP server needs an API key of scope mcp:read or mcp:write, or an OAuth access token: Authorization: Bearer <token>',
      undefined,
      { 'www-authenticate': `Bearer resource_metadata="${resourceMetadataUrl(baseUrl)}"` },
    )
  }
  if (!MCP_SCOPES.includes(key.scope)) {
    throw forbidden(
      `This API key's scope (${key.scope}) does not open the MCP server: use mcp:read or mcp:write`,
    )
  }
  return {
    userId: key.userId,
    keyId: key.keyId,
    scope: key.scope,
    authorization,
    canWrite: key.scope === 'mcp:write',
  }
}
