/**
 * OAuth for MCP clients end to end, over real HTTP against a running instance: discovery from the 401
 * of `/api/mcp`, dynamic client registration (RFC 7591), the authorization code flow with PKCE through
 * the consent step, the token, and tool calls with it through the SDK's client (scoped to the user's
 * sites and to the granted scope); an expired token is refused.
 */
import crypto from 'node:crypto'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type McpWorld, openMcpWorld } from './mcp-test-world.js'

let w: McpWorld

const base64url = (bytes: Buffer) => bytes.toString('base64url')
const REDIRECT_URI = 'http://127.0.0.1:9/callback'

/** Run the whole flow as an MCP client would, with the owner's session cookie at the consent step. */
async function obtainToken(
  scope: string,
): Promise<{ access_token: string; scope: string; clientId: string }> {
  const unauthorized = await fetch(new URL('/api/mcp', w.url), { method: 'POST' })
  expect(unauthorized.status).toBe(401)
  const resourceMetadataUrl = /resource_metadata="([^"]+)"/.exec(
    unauthorized.headers.get('www-authenticate') ?? '',
  )?.[1]
  expect(resourceMetadataUrl).toBeTruthy()
  // BASE_URL names the configured address; the test reaches the same paths on its loopback port.
  const local = (url: string) => new URL(new URL(url).pathname + new URL(url).search, w.url)
  const resource = await (await fetch(local(resourceMetadataUrl ?? ''))).json()
  expect(resource.resource).toBe(`${w.t.services.config.baseUrl}/api/mcp`)
  const issuer = new URL(resource.authorization_servers[0])
  const server = await (
    await fetch(new URL(`/.well-known/oauth-authorization-server${issuer.pathname}`, w.url))
  ).json()
  expect(server.code_challenge_methods_supported).toContain('S256')
  expect(server.scopes_supported).toEqual(expect.arrayContaining(['mcp:read', 'mcp:write']))

  const registered = await fetch(local(server.registration_endpoint), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Test assistant',
      application_type: 'native',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      scope: 'mcp:read mcp:write',
    }),
  })
  expect(registered.status, await registered.clone().text()).toBeLessThan(300)
  const client = await registered.json()

  const verifier = base64url(crypto.randomBytes(32))
  const challenge = base64url(crypto.createHash('sha256').update(verifier).digest())
  const authorizeUrl = local(server.authorization_endpoint)
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT_URI,
    scope,
    state: 'xyz',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: resource.resource,
  })) {
    authorizeUrl.searchParams.set(name, value)
  }
  const authorize = await fetch(authorizeUrl, { headers: { cookie: w.owner.cookie }, redirect: 'manual' })
  // A browser gets a redirect; a request that accepts JSON gets the same address as `{redirect, url}`.
  const location =
    authorize.status >= 300
      ? authorize.headers.get('location')
      : ((await authorize.json()) as { url: string }).url
  const consentPage = new URL(location ?? '', w.url)
  expect(consentPage.pathname).toBe('/oauth/consent')
  expect(consentPage.searchParams.get('client_id')).toBe(client.client_id)

  // What the dashboard's consent page sends when the user allows access.
  const consent = await fetch(new URL('/api/auth/oauth2/consent', w.url), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: w.owner.cookie,
      origin: w.t.services.config.baseUrl,
    },
    body: JSON.stringify({ accept: true, oauth_query: consentPage.search.slice(1) }),
  })
  const consentBody = await consent.json()
  expect(consent.status, JSON.stringify(consentBody)).toBe(200)
  const callback = new URL(consentBody.url ?? consentBody.redirect_uri)
  expect(callback.searchParams.get('state')).toBe('xyz')
  const code = callback.searchParams.get('code')
  expect(code).toBeTruthy()

  const token = await fetch(local(server.token_endpoint), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: code ?? '',
      redirect_uri: REDIRECT_URI,
      client_id: client.client_id,
      code_verifier: verifier,
      resource: resource.resource,
    }),
  })
  const tokenBody = await token.json()
  expect(token.status, JSON.stringify(tokenBody)).toBe(200)
  return { ...tokenBody, clientId: client.client_id }
}

const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')

describe.each([
  ['SQLite', false],
  ['PostgreSQL', true],
])('OAuth for MCP clients, metadata on %s', (_name, postgres) => {
  beforeAll(async () => {
    w = await openMcpWorld({}, postgres)
  }, 120_000)
  afterAll(async () => {
    await w?.close()
  })

  it('registration, consent, token, tool call: the token reads the user’s sites within its scope', async () => {
    const token = await obtainToken('mcp:read')
    expect(token.scope).toBe('mcp:read')
    const client = await w.connect(token.access_token)
    const sites = (await client.callTool({ name: 'list_sites', arguments: {} })) as CallToolResult
    expect(sites.isError, textOf(sites)).toBeFalsy()
    expect((sites.structuredContent as { data: { siteId: number }[] }).data.map((s) => s.siteId)).toEqual([
      w.owner.site.siteId,
    ])
    const other = (await client.callTool({
      name: 'get_stats',
      arguments: { site_id: w.other.site.siteId },
    })) as CallToolResult
    expect(textOf(other)).toMatch(/failed \(404\): Site not found/)
    const write = (await client.callTool({
      name: 'create_annotation',
      arguments: { site_id: w.owner.site.siteId, date: w.range.end_date, text: 'x' },
    })) as CallToolResult
    expect(textOf(write)).toContain('needs a key or token of scope mcp:write (this one is mcp:read)')

    const audit = await w.t.app.inject({
      method: 'GET',
      url: `/api/organizations/${w.owner.organizationId}/audit-log?limit=500`,
      headers: { cookie: w.owner.cookie },
    })
    const entries = (audit.json().data as { action: string; details: { keyId?: string } }[]).filter(
      (entry) => entry.action === 'mcp.tool_called',
    )
    expect(entries.some((entry) => entry.details.keyId === `oauth:${token.clientId}`)).toBe(true)
  })

  it('a token granted mcp:write runs the write tools', async () => {
    const token = await obtainToken('mcp:write')
    const client = await w.connect(token.access_token)
    const written = (await client.callTool({
      name: 'create_annotation',
      arguments: { site_id: w.owner.site.siteId, date: w.range.end_date, text: 'From OAuth' },
    })) as CallToolResult
    expect(written.isError, textOf(written)).toBeFalsy()
  })

  it('an expired token: 401', async () => {
    const token = await obtainToken('mcp:read')
    const client = await w.connect(token.access_token)
    expect(
      ((await client.callTool({ name: 'list_sites', arguments: {} })) as CallToolResult).isError,
    ).toBeFalsy()
    await sql`update "oauthAccessToken" set "expiresAt" = ${new Date(Date.now() - 1000).toISOString()}`.execute(
      w.t.services.metadata.db,
    )
    const response = await fetch(new URL('/api/mcp', w.url), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    })
    expect(response.status).toBe(401)
    await expect(client.callTool({ name: 'list_sites', arguments: {} })).rejects.toThrow(
      /401|needs an API key/,
    )
  })
})
