/**
 * The `query` tool: the Query API (`POST /api/v2/query`, Plausible-compatible) with its own body, so
 * its validation and errors are the API's: `site_id`, `metrics`, `dimensions`, `filters`,
 * `date_range`, `order_by`, `include`, `pagination`. Answers `{results: [{dimensions, metrics}], meta,
 * query}`.
 */
import { z } from 'zod'
import { defineTool } from '../mcp-tool.js'
import { MAX_TOOL_LIMIT } from './tool-args.js'

/** The Query API's address. */
export const queryApi = { method: 'POST', path: '/api/v2/query' } as const

export const query = defineTool({
  name: 'query',
  title: 'Query API',
  description:
    'Any aggregate of a site in one call, as the Query API answers it. metrics: visitors, visits, ' +
    'pageviews, views_per_visit, bounce_rate (percent), visit_duration (seconds), events, ' +
    'conversion_rate. dimensions: event:page, event:name, visit:source, visit:country, time:day, ... ' +
    'date_range: "day", "7d", "30d", "month", "6mo", "12mo", "all" or ["YYYY-MM-DD", "YYYY-MM-DD"]. ' +
    'filters: [["is", "visit:country", ["US"]], ...]. pagination {limit 1-100, offset}; default 25 rows.',
  visitorData: true,
  input: {
    site_id: z.union([z.number().int().min(1), z.string().min(1)]).describe('The site id (list_sites)'),
    metrics: z.array(z.string()).min(1).max(20).describe('The metrics to compute'),
    date_range: z
      .union([z.string(), z.array(z.string()).length(2)])
      .describe('A period name or [first day, last day]'),
    dimensions: z.array(z.string()).max(5).describe('Group by these').optional(),
    filters: z.array(z.unknown()).max(50).describe('Filter expressions').optional(),
    order_by: z.array(z.tuple([z.string(), z.enum(['asc', 'desc'])])).optional(),
    include: z.record(z.string(), z.unknown()).optional(),
    pagination: z
      .object({
        limit: z.number().int().min(1).max(MAX_TOOL_LIMIT).optional(),
        offset: z.number().int().min(0).optional(),
      })
      .optional(),
  },
  route: queryApi,
  request: (args) => ({
    body: {
      ...args,
      site_id: args.site_id,
      pagination: { limit: args.pagination?.limit ?? 25, offset: args.pagination?.offset ?? 0 },
    },
  }),
  summarize: (body, args) => {
    const rows = Array.isArray(body.results) ? body.results.length : 0
    const limit = args.pagination?.limit ?? 25
    const offset = args.pagination?.offset ?? 0
    return rows === limit
      ? `${rows} rows. More may exist: call again with pagination {"limit": ${limit}, "offset": ${offset + limit}}.`
      : `${rows} rows.`
  },
})
