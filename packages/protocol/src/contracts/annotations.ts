/**
 * The annotation endpoints of a site: notes on days of the chart. Readers of the site list them (and
 * v1 keys of its members); admins and owners write them (there is no editor role).
 */
import { z } from 'zod'
import { annotation, annotationInput, annotationsQuery, annotationUpdate } from '../annotation-schemas.js'
import { endpoint } from '../contract.js'
import { doc } from '../openapi-registry.js'
import { successData, successList, successResponse } from '../response-schemas.js'
import * as at from './addresses.js'

/** `:siteId`, as text: an id that names no site is a 404 of the access check, not a 400. */
const siteParams = z.object({ siteId: z.string() })
/** `:siteId` and `:id`, the annotation's id (a malformed or unknown one is a 404). */
export const annotationParams = z.object({ siteId: z.string(), id: doc(z.string(), 'The annotation id') })

const noWriter = 'No credentials (a private link key does not write), or an invalid API key'
const listed = { description: 'Oldest day first (then oldest written)', schema: successList(annotation) }

/** `GET /api/sites/:siteId/annotations`: the site's annotations over the days asked for. */
export const listAnnotationsEndpoint = endpoint({
  ...at.listAnnotations,
  summary: "The site's annotations",
  tag: 'Annotations',
  access: 'reader',
  params: siteParams,
  query: annotationsQuery,
  responses: { 200: listed },
})

/** `POST /api/sites/:siteId/annotations`: write an annotation; answers it. */
export const createAnnotationEndpoint = endpoint({
  ...at.createAnnotation,
  summary: 'Write an annotation',
  tag: 'Annotations',
  access: 'admin',
  params: siteParams,
  body: annotationInput,
  bodySubject: 'annotation',
  responses: { 201: { description: 'Written', schema: successData(annotation) }, 401: noWriter },
})

/** `PATCH /api/sites/:siteId/annotations/:id`: change its day, its text or both; answers it. */
export const updateAnnotationEndpoint = endpoint({
  ...at.updateAnnotation,
  summary: 'Change an annotation',
  tag: 'Annotations',
  access: 'admin',
  params: annotationParams,
  body: annotationUpdate,
  bodySubject: 'annotation',
  responses: {
    200: { description: 'The annotation after the change', schema: successData(annotation) },
    401: noWriter,
  },
})

/** `DELETE /api/sites/:siteId/annotations/:id`: delete an annotation, irreversibly. */
export const deleteAnnotationEndpoint = endpoint({
  ...at.deleteAnnotation,
  summary: 'Delete an annotation',
  tag: 'Annotations',
  access: 'admin',
  params: annotationParams,
  responses: { 200: { description: 'Deleted', schema: successResponse }, 401: noWriter },
})

/** `GET /api/v1/sites/:siteId/annotations`: as the dashboard's list, for an API key. */
export const v1ListAnnotationsEndpoint = endpoint({
  ...at.v1ListAnnotations,
  summary: "The site's annotations",
  tag: 'v1',
  access: 'apiKey',
  params: siteParams,
  query: annotationsQuery,
  responses: { 200: listed, 404: 'Not a site of your organizations (never revealed)' },
})

/** Every annotation endpoint (the route/contract coverage test reads these). */
export const annotationEndpoints = [
  listAnnotationsEndpoint,
  createAnnotationEndpoint,
  updateAnnotationEndpoint,
  deleteAnnotationEndpoint,
  v1ListAnnotationsEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    listAnnotations: typeof listAnnotationsEndpoint
    createAnnotation: typeof createAnnotationEndpoint
    updateAnnotation: typeof updateAnnotationEndpoint
    deleteAnnotation: typeof deleteAnnotationEndpoint
    v1ListAnnotations: typeof v1ListAnnotationsEndpoint
  }
}
