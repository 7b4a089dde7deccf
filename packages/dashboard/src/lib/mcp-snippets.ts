/**
 * The configuration snippets of the "Connect an AI assistant" card: how common MCP clients are told
 * the endpoint and the key. `key` is the value of an `mcp:read` key, or a placeholder before one is
 * created.
 */

/** The MCP endpoint of the instance serving the dashboard at `origin` (scheme://host[:port]). */
export const mcpEndpoint = (origin: string) => `${origin}/api/mcp`

/** What stands in for the key until the user creates one. */
export const KEY_PLACEHOLDER = '<your mcp:read key>'

export interface McpSnippet {
  client: string
  /** Where it goes (a file or a terminal). */
  where: string
  text: string
}

/** One snippet per client, for `endpoint` and `key`. */
export function mcpSnippets(endpoint: string, key: string): McpSnippet[] {
  const headers = { Authorization: `Bearer ${key}` }
  return [
    {
      client: 'Claude Code',
      where: 'a terminal',
      text: `claude mcp add --transport http pathlight ${endpoint} --header "Authorization: Bearer ${key}"`,
    },
    {
      client: 'Cursor',
      where: '.cursor/mcp.json',
      text: JSON.stringify({ mcpServers: { pathlight: { url: endpoint, headers } } }, null, 2),
    },
    {
      client: 'VS Code',
      where: '.vscode/mcp.json',
      text: JSON.stringify({ servers: { pathlight: { type: 'http', url: endpoint, headers } } }, null, 2),
    },
    {
      client: 'Claude Desktop and other clients with OAuth',
      where: 'the client’s “Add connector” form',
      text: endpoint,
    },
  ]
}
