/**
 * The MCP server end to end: the SDK's own client over real HTTP against a running instance with
 * imported events. Lists the tools; calls every read tool and compares its structured content with the
 * matching v1 answer (the dashboard route where v1 has none) and with counts made here from the
 * generated input; the write tools create what they say, visible through the dashboard's API and in
 * the audit trail; and each refusal gets its error: no credentials, a key of another scope, a read
 * key on a write tool, another organization's site, bad arguments.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { INJECTION, type McpWorld, openMcpWorld } from './mcp-test-world.js'
import { VISITOR_DATA_NOTE } from './mcp-tool.js'
import { mcpTools } from './mcp-tools.js'

let w: McpWorld
let reader: Client
let writer: Client

beforeAll(async () => {
  w = await openMcpWorld()
  reader = await w.connect(w.keys['mcp:read'])
  writer = await w.connect(w.keys['mcp:write'])
}, 120_000)
afterAll(async () => {
  await w?.close()
})

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult
const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')

/** The route's JSON answer to the owner's key, as v1 or the dashboard answers it. */
async function routeAnswer(url: string, key = w.keys.read, method: 'GET' | 'POST' = 'GET', body?: unknown) {
  const response = await w.t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${key}` },
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
  expect(response.statusCode, response.body).toBeLessThan(300)
  return response.json()
}

const q = (query: Record<string, string | number>) =>
  `?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}`

describe('tools/list', () => {
  it('lists every tool with a description and a JSON schema of its arguments', async () => {
    const { tools } = await reader.listTools()
    expect(tools.map((tool) => tool.name)).toEqual([
      'list_sites',
      'query',
      'get_stats',
      'list_goals',
      'get_funnel',
      'get_retention',
      'get_journeys',
      'list_errors',
      'get_error',
      'get_web_vitals',
      'get_live_visitors',
      'list_sessions',
      'get_session',
      'list_annotations',
      'list_segments',
      'create_annotation',
      'create_segment',
      'create_goal',
    ])
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(60)
      expect(tool.inputSchema.type).toBe('object')
    }
    const stats = tools.find((tool) => tool.name === 'get_stats')
    expect(stats?.inputSchema.required).toEqual(['site_id'])
    expect(Object.keys(stats?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining([
        'site_id',
        'start_date',
        'end_date',
        'time_zone',
        'filters',
        'compare',
        'bucket',
      ]),
    )
    expect(tools.find((tool) => tool.name === 'create_goal')?.annotations?.readOnlyHint).toBe(false)
    expect(mcpTools).toHaveLength(tools.length)
  })
})

describe('read tools answer what the API answers', () => {
  it('list_sites: the v1 sites, this organization only', async () => {
    const result = await call(reader, 'list_sites')
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual(await routeAnswer('/api/v1/sites'))
    const ids = (result.structuredContent as { data: { siteId: number }[] }).data.map((site) => site.siteId)
    expect(ids).toEqual([w.owner.site.siteId])
  })

  it('get_stats: the v1 stats with the comparison, pageviews as counted from the input', async () => {
    const result = await call(reader, 'get_stats', { site_id: w.owner.site.siteId, ...w.range })
    expect(result.isError).toBeFalsy()
    const v1 = await routeAnswer(`/api/v1/sites/${w.owner.site.siteId}/stats${q(w.range)}`)
    expect(result.structuredContent).toEqual(v1)
    const pageviews = [...w.generated.pageviewsByDay.values()].reduce((a, b) => a + b, 0)
    expect(v1.data.current.pageviews).toBe(pageviews)
    expect(v1.data.current.visitors).toBe(60)
    expect(v1.data.previous.pageviews).toBe(0)
    expect(textOf(result)).toContain(`60 visitors`)
    expect(textOf(result)).toContain(`${pageviews} pageviews`)
  })

  it('get_stats with a daily series: one bucket per day, each as counted', async () => {
    const result = await call(reader, 'get_stats', {
      site_id: w.owner.site.siteId,
      ...w.range,
      bucket: 'day',
    })
    const series = (result.structuredContent as { data: { series: { time: string; pageviews: number }[] } })
      .data.series
    expect(series).toHaveLength(14)
    const counted = Object.fromEntries(w.generated.pageviewsByDay)
    for (const point of series)
      expect(point.pageviews, point.time).toBe(counted[point.time.slice(0, 10)] ?? 0)
  })

  it('list_sessions: the v1 sessions, paged with a note on the next page', async () => {
    const args = { site_id: w.owner.site.siteId, ...w.range, limit: 5 }
    const result = await call(reader, 'list_sessions', args)
    expect(result.structuredContent).toEqual(
      await routeAnswer(`/api/v1/sites/${w.owner.site.siteId}/sessions${q({ ...w.range, limit: 5 })}`),
    )
    const meta = (result.structuredContent as { meta: { total: number } }).meta
    expect(meta.total).toBe(60)
    expect(textOf(result)).toContain('Page 1 of 12 (60 rows in all): call again with page 2 for more.')
    const second = await call(reader, 'list_sessions', { ...args, page: 2 })
    expect((second.structuredContent as { meta: { page: number } }).meta.page).toBe(2)
  })

  it('get_session: the events of one session, as the dashboard lists them', async () => {
    const sessions = await call(reader, 'list_sessions', {
      site_id: w.owner.site.siteId,
      ...w.range,
      limit: 1,
    })
    const sessionId = (sessions.structuredContent as { data: { session_id: string }[] }).data[0]?.session_id
    expect(sessionId).toBeTruthy()
    const result = await call(reader, 'get_session', {
      site_id: w.owner.site.siteId,
      ...w.range,
      session_id: sessionId,
    })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual(
      await routeAnswer(
        `/api/sites/${w.owner.site.siteId}/sessions/${sessionId}/events${q({ ...w.range, limit: 25 })}`,
      ),
    )
    expect((result.structuredContent as { data: unknown[] }).data.length).toBeGreaterThan(0)
  })

  it('get_retention: the v1 retention', async () => {
    const args = { ...w.range, period: 'day' }
    const result = await call(reader, 'get_retention', { site_id: w.owner.site.siteId, ...args })
    expect(result.structuredContent).toEqual(
      await routeAnswer(`/api/v1/sites/${w.owner.site.siteId}/retention${q(args)}`),
    )
    const cohorts = (result.structuredContent as { data: { visitors: number }[] }).data
    expect(cohorts.reduce((sum, cohort) => sum + cohort.visitors, 0)).toBe(60)
  })

  it('get_journeys, list_goals, list_errors, get_web_vitals, get_live_visitors, list_segments: the dashboard routes', async () => {
    const site = w.owner.site.siteId
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'get_journeys',
        { ...w.range, steps: 3 },
        `/api/sites/${site}/journeys${q({ ...w.range, steps: 3, limit: 25 })}`,
      ],
      ['list_goals', w.range, `/api/sites/${site}/goals${q({ ...w.range, limit: 25 })}`],
      ['list_errors', w.range, `/api/sites/${site}/error-names${q({ ...w.range, limit: 25 })}`],
      ['get_web_vitals', w.range, `/api/sites/${site}/web-vitals${q(w.range)}`],
      ['get_live_visitors', {}, `/api/sites/${site}/live`],
      ['list_segments', {}, `/api/sites/${site}/segments`],
    ]
    for (const [tool, args, url] of cases) {
      const result = await call(reader, tool, { site_id: site, ...args })
      expect(result.isError, `${tool}: ${textOf(result)}`).toBeFalsy()
      const expected = await routeAnswer(url)
      if (tool === 'get_live_visitors') {
        expect((result.structuredContent as { data: { visitors: number } }).data.visitors).toBe(
          expected.data.visitors,
        )
      } else expect(result.structuredContent, tool).toEqual(expected)
    }
    const journeys = await call(reader, 'get_journeys', { site_id: site, ...w.range })
    expect((journeys.structuredContent as { data: unknown[] }).data.length).toBeGreaterThan(0)
  })

  it('get_error: the occurrences of one message', async () => {
    const site = w.owner.site.siteId
    const result = await call(reader, 'get_error', {
      site_id: site,
      ...w.range,
      message: 'TypeError: x is undefined',
    })
    expect(result.isError, textOf(result)).toBeFalsy()
    expect(result.structuredContent).toEqual(
      await routeAnswer(
        `/api/sites/${site}/error-events${q({ ...w.range, limit: 25, errorMessage: 'TypeError: x is undefined' })}`,
      ),
    )
  })

  it('get_funnel: the step counts of an ad-hoc funnel, as counted from the input', async () => {
    const site = w.owner.site.siteId
    const steps = [
      { type: 'path', name: 'Any page', pathPattern: '/*' },
      { type: 'event', name: 'Signed up', eventName: INJECTION },
    ]
    const result = await call(reader, 'get_funnel', { site_id: site, ...w.range, steps })
    expect(result.isError, textOf(result)).toBeFalsy()
    expect(result.structuredContent).toEqual(
      await routeAnswer(`/api/sites/${site}/funnels/query${q(w.range)}`, w.keys.read, 'POST', { steps }),
    )
    const figures = (result.structuredContent as { data: { steps: { sessions: number }[] } }).data.steps
    expect(figures.map((step) => step.sessions)).toEqual([60, w.generated.customEvents])
  })

  it('visitor data comes back as data, marked in the summary', async () => {
    const result = await call(reader, 'get_session', {
      site_id: w.owner.site.siteId,
      ...w.range,
      session_id: await sessionWithEvent(),
    })
    expect(JSON.stringify(result.structuredContent)).toContain(INJECTION)
    const [summary] = result.content
    expect(summary?.type === 'text' && summary.text).toContain(VISITOR_DATA_NOTE)
    expect(summary?.type === 'text' && summary.text).not.toContain(INJECTION)
  })
})

/** A session whose events include the custom event (the first visitor's). */
async function sessionWithEvent(): Promise<string> {
  const sessions = await routeAnswer(
    `/api/v1/sites/${w.owner.site.siteId}/sessions${q({ ...w.range, limit: 100 })}`,
  )
  for (const session of sessions.data as { session_id: string }[]) {
    const events = await routeAnswer(
      `/api/sites/${w.owner.site.siteId}/sessions/${session.session_id}/events${q(w.range)}`,
    )
    if (JSON.stringify(events).includes(INJECTION)) return session.session_id
  }
  throw new Error('no session with the custom event')
}

describe('write tools', () => {
  it('create_annotation, create_segment, create_goal create what they say, audited with the key', async () => {
    const site = w.owner.site.siteId
    const annotation = await call(writer, 'create_annotation', {
      site_id: site,
      date: w.range.end_date,
      text: 'Launch',
    })
    expect(annotation.isError, textOf(annotation)).toBeFalsy()
    const segment = await call(writer, 'create_segment', {
      site_id: site,
      name: 'Pricing',
      filters: [{ parameter: 'pathname', type: 'equals', value: ['/pricing'] }],
      visibility: 'site',
    })
    expect(segment.isError, textOf(segment)).toBeFalsy()
    const goal = await call(writer, 'create_goal', {
      site_id: site,
      name: 'Signup page',
      goal_type: 'path',
      config: { pathPattern: '/signup' },
    })
    expect(goal.isError, textOf(goal)).toBeFalsy()

    const asOwner = async (url: string) =>
      (await w.t.app.inject({ method: 'GET', url, headers: { cookie: w.owner.cookie } })).json()
    expect((await asOwner(`/api/sites/${site}/annotations`)).data).toEqual([
      expect.objectContaining({ date: w.range.end_date, text: 'Launch' }),
    ])
    expect((await asOwner(`/api/sites/${site}/segments`)).data).toEqual([
      expect.objectContaining({ name: 'Pricing', visibility: 'site' }),
    ])
    const goals = await asOwner(`/api/sites/${site}/goals${q(w.range)}`)
    expect(goals.data).toEqual([expect.objectContaining({ name: 'Signup page' })])
    // The list tools see them too.
    const listed = await call(reader, 'list_annotations', { site_id: site })
    expect(listed.structuredContent).toEqual(await routeAnswer(`/api/v1/sites/${site}/annotations`))

    const audit = await asOwner(`/api/organizations/${w.owner.organizationId}/audit-log?limit=500`)
    const calls = (audit.data as { action: string; details: { tool?: string; keyId?: string } }[]).filter(
      (entry) => entry.action === 'mcp.tool_called',
    )
    const writerKey = await w.t.services.apiKeys.verify(w.keys['mcp:write'])
    expect(calls.filter((entry) => entry.details.tool === 'create_goal')).toEqual([
      expect.objectContaining({ details: expect.objectContaining({ keyId: writerKey?.keyId, status: 201 }) }),
    ])
    expect(calls.some((entry) => entry.details.tool === 'get_stats')).toBe(true)
  })

  it('a read key may not call a write tool', async () => {
    const result = await call(reader, 'create_annotation', {
      site_id: w.owner.site.siteId,
      date: w.range.end_date,
      text: 'x',
    })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toContain('needs a key or token of scope mcp:write (this one is mcp:read)')
  })
})

describe('refusals', () => {
  const post = (headers: Record<string, string>) =>
    fetch(new URL('/api/mcp', w.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    })

  it('no credentials: 401 pointing at the protected resource metadata', async () => {
    const response = await post({})
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${w.t.services.config.baseUrl}/.well-known/oauth-protected-resource/api/mcp"`,
    )
  })

  it('keys of the other scopes: 403 naming the scope; an unknown key: 401', async () => {
    for (const scope of ['track', 'read', 'full'] as const) {
      const response = await post({ authorization: `Bearer ${w.keys[scope]}` })
      expect(response.status, scope).toBe(403)
      expect((await response.json()).error).toContain(`(${scope}) does not open the MCP server`)
    }
    expect((await post({ authorization: 'Bearer pl_unknown' })).status).toBe(401)
    await expect(w.connect(w.keys.read)).rejects.toThrow(/does not open the MCP server/)
  })

  it("another organization's site: Site not found, as the API says", async () => {
    for (const tool of ['get_stats', 'list_sessions', 'list_annotations', 'get_live_visitors']) {
      const result = await call(reader, tool, { site_id: w.other.site.siteId })
      expect(result.isError, tool).toBe(true)
      expect(textOf(result), tool).toMatch(/failed \(404\): Site not found/)
    }
  })

  it('bad arguments: a tool error naming the field, never a protocol error', async () => {
    const site = w.owner.site.siteId
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['get_stats', { site_id: site, start_date: 'yesterday' }, /start_date/],
      ['get_stats', { site_id: 'one' }, /site_id/],
      ['get_stats', { site_id: site, start_date: '2026-05-10', end_date: '2026-05-01' }, /end_date/],
      ['get_stats', { site_id: site, time_zone: 'Mars/Olympus' }, /time_zone/],
      ['get_journeys', { site_id: site, steps: 9 }, /steps/],
      ['list_sessions', { site_id: site, limit: 1000 }, /limit/],
      [
        'create_goal',
        { site_id: site, name: 'x', goal_type: 'path', config: { pathPattern: 'no-slash' } },
        /pathPattern/,
      ],
      ['get_funnel', { site_id: site, steps: [] }, /steps/],
    ]
    for (const [tool, args, field] of cases) {
      const result = await call(tool === 'create_goal' ? writer : reader, tool, args)
      expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true)
      expect(textOf(result), `${tool} ${JSON.stringify(args)}`).toMatch(field)
    }
  })

  it('GET and DELETE: 405, the server is stateless', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(new URL('/api/mcp', w.url), {
        method,
        headers: { authorization: `Bearer ${w.keys['mcp:read']}` },
      })
      expect(response.status, method).toBe(405)
    }
  })
})
