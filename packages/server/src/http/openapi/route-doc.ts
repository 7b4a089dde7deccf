/**
 * The shape of a route's doc (`config.doc` where the route is registered) and helpers to write docs
 * tersely. Adding a route: give it a doc with its summary, tag, access level (who may call it), the
 * query and body schemas it validates with, and its answers per status (`json(description, schema)`
 * with a schema of `@pathlight/protocol`, or a string for an error answer). The access level adds its
 * usual errors (401, 403, 404, 429), a query or body adds 400, and every route gets a `default` error
 * answer; list other statuses in the doc. A route registered from an endpoint contract (`http/route.ts`)
 * gets its doc from the contract (`routeDoc`), and declares nothing here.
 */
import type { z } from 'zod'
import type { Access } from './access-rules.js'

/** The document's tags, in the order the reference page lists them. */
export const tags = {
  Health: 'Liveness of the service and its stores.',
  Auth: 'Accounts and the session cookie (Better Auth).',
  Tracking: 'The tracking endpoint and the browser script.',
  Organizations: 'Organizations and the sites in them.',
  Members: 'Members of an organization, their roles, and the audit trail.',
  Sites: 'A site, its configuration, private link and audit trail.',
  Goals: 'Conversion goals and the sessions that completed them.',
  Funnels: 'Funnels: ordered steps, the sessions reaching each, and saved funnels.',
  Segments: 'Saved segments: named filters of a site that any analytics read applies with `segment=ID`.',
  Reports: "The dashboard's reports of a site: figures, breakdowns, sessions, events, web vitals.",
  Annotations: "Notes on days of a site's chart: a launch, an outage.",
  Errors: 'JavaScript errors tracked on a site.',
  Experiments: 'A/B experiments of a site (their results: `GET /api/v1/sites/{siteId}/experiments`).',
  Webhooks: "Subscriptions to a site's events, and their delivery log.",
  Alerts: 'Alert rules on a metric of a site.',
  'E-mail reports':
    "A site's scheduled e-mail reports, and the confirm and unsubscribe links in their mails.",
  'API keys': "The caller's own account: API keys, sessions and password.",
  Admin: 'Operator routes of the instance owner.',
  v1: 'The public REST API v1: API keys only, rate limited per key, `{data, meta}` envelope.',
  MCP: 'The MCP server for AI assistants (docs/mcp.md): keys of scope `mcp:read` or `mcp:write`, or OAuth.',
  Reference: 'This document and its reference page.',
  Dashboard: 'The web app.',
} as const

export type Tag = keyof typeof tags

/** One response: a description and its body per media type (no content: an empty body). */
export interface ResponseDoc {
  description: string
  /** Body schema per media type; `null` for a body the document does not describe (files, HTML). */
  content?: Record<string, z.ZodType | null>
}

/** A status code, or 'default' (every status not listed). */
export type Status = number | 'default'

/** Everything the document says about one route. */
export interface RouteDoc {
  summary: string
  /** Markdown; details beyond the summary. */
  description?: string
  tag: Tag
  /** Who may call it: picks the security requirements and the usual error answers (`access-rules.ts`). */
  access: Access
  /** A precision on `access` for the reader, e.g. "anyone may remove themselves". */
  who?: string
  /** Descriptions of path parameters (`:name`) beyond the defaults of `build-document.ts`. */
  params?: Record<string, string>
  query?: z.ZodObject
  /** The request body (imported from the schema the route validates with, where one is exported). */
  body?: z.ZodType
  /** Media types the body may come as; default JSON only. */
  bodyMediaTypes?: string[]
  /** What it answers. A string is an error answer (`ErrorResponse`) with that description. */
  responses: Partial<Record<Status, ResponseDoc | string>>
  /** Security requirements when they differ from the access level's (e.g. an optional API key). */
  security?: Record<string, string[]>[]
}

/** A JSON answer. */
export const json = (description: string, schema: z.ZodType): ResponseDoc => ({
  description,
  content: { 'application/json': schema },
})

/** An answer of other media types, undescribed bodies (scripts, pages, files). */
export const media = (description: string, ...mediaTypes: string[]): ResponseDoc => ({
  description,
  content: Object.fromEntries(mediaTypes.map((type) => [type, null])),
})

/** An answer without a body. */
export const empty = (description: string): ResponseDoc => ({ description })
