/**
 * The OAuth discovery documents an MCP client reads before it signs in, at the host's root:
 * - `/.well-known/oauth-protected-resource/api/mcp` (and without the path): the protected resource
 *   metadata of `/api/mcp` (RFC 9728), naming Better Auth under `/api/auth` as its authorization server;
 * - `/.well-known/oauth-authorization-server/api/auth` (and without the path): that server's metadata
 *   (RFC 8414), as Better Auth's OAuth provider plugin answers it (endpoints, PKCE S256, dynamic client
 *   registration, the `mcp:read` and `mcp:write` scopes).
 */
import { oauthProviderAuthServerMetadata } from '@better-auth/oauth-provider'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Auth } from '../auth/better-auth.js'
import { MCP_OAUTH_SCOPES, mcpResource } from '../auth/mcp-oauth-plugin.js'
import { toHeaders } from '../http/caller.js'
import { json } from '../http/openapi/route-doc.js'

export interface OAuthMetadataOptions {
  auth: Auth
  baseUrl: string
}

const metadataBody = z.record(z.string(), z.unknown())

export async function oauthMetadataRoutes(app: FastifyInstance, { auth, baseUrl }: OAuthMetadataOptions) {
  const resourceMetadata = {
    resource: mcpResource(baseUrl),
    authorization_servers: [`${baseUrl}/api/auth`],
    scopes_supported: MCP_OAUTH_SCOPES.filter((scope) => scope !== 'offline_access'),
    bearer_methods_supported: ['header'],
    resource_name: 'Pathlight MCP server',
    resource_documentation: `${baseUrl}/api/docs`,
  }
  for (const url of [
    '/.well-known/oauth-protected-resource/api/mcp',
    '/.well-known/oauth-protected-resource',
  ]) {
    app.get(
      url,
      {
        config: {
          doc: {
            summary: 'Protected resource metadata of the MCP server (RFC 9728)',
            tag: 'MCP',
            access: 'public',
            responses: { 200: json('The metadata', metadataBody) },
          },
        },
      },
      async (_request, reply) => reply.header('cache-control', 'public, max-age=3600').send(resourceMetadata),
    )
  }
  const serverMetadata = oauthProviderAuthServerMetadata(auth)
  for (const url of [
    '/.well-known/oauth-authorization-server/api/auth',
    '/.well-known/oauth-authorization-server',
  ]) {
    app.get(
      url,
      {
        config: {
          doc: {
            summary: 'Authorization server metadata for MCP clients (RFC 8414)',
            tag: 'MCP',
            access: 'public',
            responses: { 200: json('The metadata', metadataBody) },
          },
        },
      },
      async (request, reply) => {
        const answer = await serverMetadata(
          new Request(`${baseUrl}/api/auth/.well-known/oauth-authorization-server`, {
            headers: toHeaders(request),
          }),
        )
        return reply
          .code(answer.status)
          .header('content-type', 'application/json; charset=utf-8')
          .send(await answer.text())
      },
    )
  }
}
