import { describe, expect, it } from 'vitest'
import { KEY_PLACEHOLDER, mcpEndpoint, mcpSnippets } from './mcp-snippets'

describe('MCP client snippets', () => {
  it('name the endpoint and the key in each client’s own format', () => {
    const endpoint = mcpEndpoint('https://stats.example.com')
    expect(endpoint).toBe('https://stats.example.com/api/mcp')
    const [claude, cursor, vscode, oauth] = mcpSnippets(endpoint, 'pl_abc')
    expect(claude?.text).toBe(
      'claude mcp add --transport http pathlight https://stats.example.com/api/mcp --header "Authorization: Bearer pl_abc"',
    )
    expect(JSON.parse(cursor?.text ?? '')).toEqual({
      mcpServers: { pathlight: { url: endpoint, headers: { Authorization: 'Bearer pl_abc' } } },
    })
    expect(JSON.parse(vscode?.text ?? '')).toEqual({
      servers: { pathlight: { type: 'http', url: endpoint, headers: { Authorization: 'Bearer pl_abc' } } },
    })
    expect(oauth?.text).toBe(endpoint)
    expect(mcpSnippets(endpoint, KEY_PLACEHOLDER)[0]?.text).toContain('Bearer <your mcp:read key>')
  })
})
