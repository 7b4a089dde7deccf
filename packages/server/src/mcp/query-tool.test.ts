/**
 * The `query` tool over the Query API (`POST /api/v2/query`). Passes once that API is merged: on a
 * branch without it the route answers 404 and these tests fail. Over real HTTP with the SDK's client:
 * the tool's structured content is the API's answer to the same body, visitors per page are those
 * counted from the imported input, and a bad body gets the API's error naming the field.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type McpWorld, openMcpWorld } from './mcp-test-world.js'

let w: McpWorld
let reader: Client
beforeAll(async () => {
  w = await openMcpWorld()
  reader = await w.connect(w.keys['mcp:read'])
}, 120_000)
afterAll(async () => {
  await w?.close()
})

const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')

describe('query tool', () => {
  it('answers what the Query API answers, visitors as counted from the input', async () => {
    const body = {
      site_id: w.owner.site.siteId,
      metrics: ['visitors', 'pageviews'],
      date_range: [w.range.start_date, w.range.end_date],
    }
    const result = (await reader.callTool({ name: 'query', arguments: body })) as CallToolResult
    expect(result.isError, textOf(result)).toBeFalsy()
    const api = await w.t.app.inject({
      method: 'POST',
      url: '/api/v2/query',
      headers: { authorization: `Bearer ${w.keys.read}` },
      payload: { ...body, pagination: { limit: 25, offset: 0 } },
    })
    expect(api.statusCode, api.body).toBe(200)
    expect(result.structuredContent).toEqual(api.json())
    const pageviews = [...w.generated.pageviewsByDay.values()].reduce((a, b) => a + b, 0)
    expect((result.structuredContent as { results: { metrics: number[] }[] }).results[0]?.metrics).toEqual([
      60,
      pageviews,
    ])
  })

  it('a metric the API does not know: a tool error naming it', async () => {
    const result = (await reader.callTool({
      name: 'query',
      arguments: { site_id: w.owner.site.siteId, metrics: ['happiness'], date_range: '7d' },
    })) as CallToolResult
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/failed \(400\).*(metrics|happiness)/)
  })
})
