/**
 * The API reference: the OpenAPI document of the routes the server registered, and the page rendered
 * from it. Both are built by the server on first request and served as built (`raw`).
 */
import { z } from 'zod'
import { endpoint } from '../contract.js'
import * as at from './addresses.js'

/** `GET /api/openapi.json`. */
export const openApiDocumentEndpoint = endpoint({
  ...at.openApiDocument,
  summary: 'This OpenAPI 3.1 document',
  tag: 'Reference',
  access: 'public',
  raw: true,
  responses: {
    200: {
      description: 'The document (cached 5 minutes)',
      schema: z.looseObject({
        openapi: z.string(),
        info: z.looseObject({}),
        paths: z.record(z.string(), z.unknown()),
      }),
    },
  },
})

/** `GET /api/docs`. */
export const referencePageEndpoint = endpoint({
  ...at.referencePage,
  summary: 'The API reference page (HTML, rendered from this document)',
  tag: 'Reference',
  access: 'public',
  raw: true,
  responses: { 200: { description: 'The reference page (cached 5 minutes)', media: ['text/html'] } },
})

/** Every reference endpoint (the route/contract coverage test reads these). */
export const referenceEndpoints = [openApiDocumentEndpoint, referencePageEndpoint] as const

declare module './addresses.js' {
  interface EndpointContracts {
    openApiDocument: typeof openApiDocumentEndpoint
    referencePage: typeof referencePageEndpoint
  }
}
