/**
 * The OpenAPI document of the whole service as tests need it before any instance is open (to name
 * their cases): built from the routes a test instance registers, once per process.
 */
import { buildOpenApiDocument, type OpenApiDocument } from '../http/openapi/build-document.js'
import { openTestInstance } from './test-instance.js'

let document: Promise<OpenApiDocument> | undefined

/** The document of every registered route (opens and closes a test instance the first time). */
export function serviceDocument(): Promise<OpenApiDocument> {
  document ??= (async () => {
    const t = await openTestInstance({ validateResponses: false })
    try {
      return buildOpenApiDocument(t.app.routeList)
    } finally {
      await t.close()
    }
  })()
  return document
}
