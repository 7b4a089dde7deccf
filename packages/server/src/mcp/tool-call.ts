/**
 * How a tool reaches the API: one in-process request (`app.inject`) to the matching route, carrying
 * the caller's Authorization header, so access (404 for a site the caller cannot read), validation,
 * errors and the key's request budget are exactly the API's. A 2xx answer becomes the tool's structured
 * content; a 4xx becomes a tool error whose text names the field (the route's `details.fieldErrors`);
 * a 429 says when to retry. Every call is audited (`mcp-audit.ts`).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { FastifyInstance } from 'fastify'
import type { McpCaller } from './mcp-caller.js'

/** Where a tool's request goes: an address of `@pathlight/protocol` (method and path). */
export interface RouteAddress {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: string
}

/** What a tool passes to its route: path parameters, the query string and a JSON body. */
export interface RouteInput {
  params?: Record<string, string | number>
  query?: Record<string, unknown>
  body?: unknown
  /** Another route than the tool's own (a saved funnel instead of an ad-hoc one). */
  address?: RouteAddress
}

/** The outcome of a route call: the JSON answer, or the error the route gave. */
export type RouteAnswer =
  | { ok: true; status: number; body: Record<string, unknown> }
  | { ok: false; status: number; message: string }

/** What every tool handler gets: the app to call and the verified caller. */
export interface ToolContext {
  app: FastifyInstance
  caller: McpCaller
}

/** `/api/sites/:siteId/goals` with `{siteId: 3}`: `/api/sites/3/goals` (each value URL-encoded). */
export function pathOf(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined) throw new Error(`no value for :${name} of ${path}`)
    return encodeURIComponent(String(value))
  })
}

/**
 * A query string of the route's parameters: undefined values left out, arrays and objects as JSON
 * (the `filters` parameter), everything else as text.
 */
export function queryStringOf(query: Record<string, unknown> = {}): string {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue
    search.set(name, typeof value === 'object' ? JSON.stringify(value) : String(value))
  }
  const text = search.toString()
  return text === '' ? '' : `?${text}`
}

/** The text of an error answer: its message, then each field's errors (`field: message`). */
export function errorText(status: number, body: unknown): string {
  const record = (typeof body === 'object' && body !== null ? body : {}) as {
    error?: unknown
    details?: { fieldErrors?: Record<string, unknown>; formErrors?: unknown }
  }
  const parts = [typeof record.error === 'string' ? record.error : `The API answered ${status}`]
  for (const [field, messages] of Object.entries(record.details?.fieldErrors ?? {})) {
    parts.push(`${field}: ${[messages].flat().join('; ')}`)
  }
  return parts.join('. ')
}

/** Call a route as the caller. Never throws for an HTTP error: the answer says what went wrong. */
export async function callRoute(
  ctx: ToolContext,
  address: RouteAddress,
  input: RouteInput = {},
): Promise<RouteAnswer> {
  const response = await ctx.app.inject({
    method: address.method,
    url: pathOf(address.path, input.params) + queryStringOf(input.query),
    headers: {
      authorization: ctx.caller.authorization,
      ...(input.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(input.body === undefined ? {} : { payload: JSON.stringify(input.body) }),
  })
  let body: unknown
  try {
    body = response.json()
  } catch {
    body = undefined
  }
  if (response.statusCode >= 200 && response.statusCode < 300) {
    return { ok: true, status: response.statusCode, body: (body ?? {}) as Record<string, unknown> }
  }
  let message = errorText(response.statusCode, body)
  if (response.statusCode === 429) {
    const retryAfter = response.headers['retry-after']
    message = `${message}. Rate limited: retry after ${retryAfter ?? 'a few'} seconds`
  } else if (response.statusCode === 404) {
    message = `${message} (unknown to you, or not in one of your organizations: list_sites lists the sites you may read)`
  }
  return { ok: false, status: response.statusCode, message }
}

/** A tool error result (`isError`), shown to the assistant as text. */
export const toolError = (message: string): CallToolResult => ({
  content: [{ type: 'text', text: message }],
  isError: true,
})

/**
 * A tool's answer: the summary line first, then the data as JSON text for clients that read only
 * text, and the same data as structured content.
 */
export function toolAnswer(summary: string, data: Record<string, unknown>): CallToolResult {
  return {
    content: [
      { type: 'text', text: summary },
      { type: 'text', text: JSON.stringify(data) },
    ],
    structuredContent: data,
  }
}
