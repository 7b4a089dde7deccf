/**
 * Routes of the API reference (public scope):
 * - `GET /api/openapi.json`: the OpenAPI 3.1 document of the routes this app registered;
 * - `GET /api/docs`: the reference page rendered from it (HTML, no script).
 * Both are built on first request (when every route is registered) and kept; browsers and proxies
 * may cache them 5 minutes.
 */
import { openApiDocumentEndpoint, referencePageEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { route } from '../route.js'
import { htmlPageHeaders } from '../security-headers.js'
import { buildOpenApiDocument } from './build-document.js'
import { renderReferencePage } from './render-reference.js'

export const REFERENCE_CACHE_CONTROL = 'public, max-age=300'

/** The page runs no script and loads nothing: styles inline, links within the origin. */
export const REFERENCE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"

/** Register the two routes. */
export async function openApiRoutes(app: FastifyInstance) {
  let built: { json: string; html: string } | undefined
  const reference = () => {
    if (!built) {
      const document = buildOpenApiDocument(app.routeList)
      built = { json: JSON.stringify(document), html: renderReferencePage(document) }
    }
    return built
  }

  route(app, openApiDocumentEndpoint, async ({ reply }) =>
    reply
      .header('cache-control', REFERENCE_CACHE_CONTROL)
      .header('access-control-allow-origin', '*')
      .type('application/json; charset=utf-8')
      .send(reference().json),
  )

  route(app, referencePageEndpoint, async ({ reply }) =>
    reply
      .header('cache-control', REFERENCE_CACHE_CONTROL)
      .headers(htmlPageHeaders(REFERENCE_CSP))
      .type('text/html; charset=utf-8')
      .send(reference().html),
  )
}
