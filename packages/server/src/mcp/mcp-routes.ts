/**
 * `/api/mcp`: the Model Context Protocol server, Streamable HTTP transport of the official SDK,
 * stateless (no `Mcp-Session-Id`; any node answers), answers as JSON. `POST` carries the JSON-RPC
 * messages; `GET` and `DELETE` (a stream or a session to end) answer 405, as a stateless server does.
 * The caller is checked before any message is read (`mcp-caller.ts`): 401 with `WWW-Authenticate`
 * pointing at the protected resource metadata, 403 for a key of a non-`mcp:` scope. Tool calls draw
 * on the key's request budget through the routes they call; the MCP request itself does not.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { VerifiedKey } from '../auth/api-keys.js'
import { media } from '../http/openapi/route-doc.js'
import { errorBody } from '../shared/errors.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { mcpCallerOf } from './mcp-caller.js'
import { createMcpServer } from './mcp-server.js'

export interface McpRouteOptions {
  db: MetadataDb
  /** Key verification (`ApiKeys.verify`): API keys and OAuth access tokens. */
  verify: (token: string) => Promise<VerifiedKey | null>
  baseUrl: string
  /** The server version it reports to clients. */
  version: string
}

/** The path of the MCP endpoint. */
export const MCP_PATH = '/api/mcp'

const mcpDoc = {
  summary: 'The MCP server (Model Context Protocol, Streamable HTTP)',
  description:
    'JSON-RPC 2.0 messages of the Model Context Protocol (`initialize`, `tools/list`, `tools/call`), ' +
    'stateless, answered as JSON. Needs an API key of scope `mcp:read` (read tools) or `mcp:write` (write ' +
    'tools too), or an OAuth access token of an MCP client. Tools and arguments: docs/mcp.md.',
  tag: 'MCP',
  access: 'apiKey',
  body: z.object({ jsonrpc: z.literal('2.0') }).loose(),
  responses: {
    200: media('The JSON-RPC answer', 'application/json'),
    202: media('A notification, accepted', 'application/json'),
  },
} as const

export async function mcpRoutes(app: FastifyInstance, { db, verify, baseUrl, version }: McpRouteOptions) {
  app.post(MCP_PATH, { config: { doc: mcpDoc } }, async (request, reply) => {
    const caller = await mcpCallerOf(request, verify, baseUrl)
    const server = createMcpServer(app, db, caller, version)
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    })
    reply.hijack()
    reply.raw.on('close', () => {
      void transport.close()
      void server.close()
    })
    await server.connect(transport)
    await transport.handleRequest(request.raw, reply.raw, request.body)
  })
  const notAllowed = {
    summary: 'Not offered: the MCP server is stateless',
    description: 'No server-sent stream (`GET`) and no session to end (`DELETE`): 405.',
    tag: 'MCP',
    access: 'public',
    responses: { 405: 'Method not allowed' },
  } as const
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: MCP_PATH,
      config: { doc: notAllowed },
      handler: async (_request, reply) =>
        reply
          .code(405)
          .header('allow', 'POST')
          .send(errorBody('Method not allowed: the MCP server is stateless, send messages with POST')),
    })
  }
}
