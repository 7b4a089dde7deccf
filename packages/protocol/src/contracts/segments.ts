/**
 * The saved segment endpoints of a site: list (any reader: the site's shared segments, and a member's
 * own personal ones), create, change and delete. A member creates personal segments; shared (`site`)
 * segments are created and changed by admins and owners; a personal segment is changed by its creator
 * only, and is a 404 to everyone else.
 */
import { z } from 'zod'
import { endpoint } from '../contract.js'
import { doc } from '../openapi-registry.js'
import { successData, successList, successResponse } from '../response-schemas.js'
import { segment, segmentInput, segmentUpdate } from '../segment-schemas.js'
import * as at from './addresses.js'

/** `:siteId`, as text: an id that names no site is a 404 of the access check, not a 400. */
const siteParams = z.object({ siteId: z.string() })
/** `:siteId` and `:segmentId` (a malformed or unknown id, or one the caller may not see, is a 404). */
export const segmentParams = z.object({
  siteId: z.string(),
  segmentId: doc(z.string(), 'The segment id'),
})

const noWriter = 'No credentials (a private link key does not write), or an invalid API key'
const notAdmin = 'A shared (`site`) segment, and the caller is neither admin nor owner'

/** `GET /api/sites/:siteId/segments`: the segments the caller sees, oldest first. */
export const listSegmentsEndpoint = endpoint({
  ...at.listSegments,
  summary: 'Saved segments the caller sees',
  description:
    "The site's shared segments, and the caller's own personal ones (a private link key or an anonymous " +
    'reader of a public site sees the shared ones only).',
  tag: 'Segments',
  access: 'reader',
  params: siteParams,
  responses: { 200: { description: 'Oldest first', schema: successList(segment) } },
})

/** `POST /api/sites/:siteId/segments`: save filters as a segment; answers it. */
export const createSegmentEndpoint = endpoint({
  ...at.createSegment,
  summary: 'Save filters as a segment',
  description: 'Any member saves a personal segment; a shared (`site`) one takes the admin or owner role.',
  tag: 'Segments',
  access: 'member',
  params: siteParams,
  body: segmentInput,
  bodySubject: 'segment',
  responses: { 201: { description: 'Created', schema: successData(segment) }, 401: noWriter, 403: notAdmin },
})

/** `PATCH /api/sites/:siteId/segments/:segmentId`: change any subset; answers the segment after it. */
export const updateSegmentEndpoint = endpoint({
  ...at.updateSegment,
  summary: 'Change a segment',
  description:
    'Any subset of `{name, filters, visibility}`; `filters` is replaced whole. A personal segment is ' +
    'changed by its creator; a shared one, or making one shared, takes the admin or owner role.',
  tag: 'Segments',
  access: 'member',
  params: segmentParams,
  body: segmentUpdate,
  bodySubject: 'segment',
  responses: {
    200: { description: 'The segment after the change', schema: successData(segment) },
    401: noWriter,
    403: notAdmin,
  },
})

/** `DELETE /api/sites/:siteId/segments/:segmentId`: delete a segment, irreversibly. */
export const deleteSegmentEndpoint = endpoint({
  ...at.deleteSegment,
  summary: 'Delete a segment',
  tag: 'Segments',
  access: 'member',
  params: segmentParams,
  responses: { 200: { description: 'Deleted', schema: successResponse }, 401: noWriter, 403: notAdmin },
})

/** Every segment endpoint (the route/contract coverage test reads these). */
export const segmentEndpoints = [
  listSegmentsEndpoint,
  createSegmentEndpoint,
  updateSegmentEndpoint,
  deleteSegmentEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    listSegments: typeof listSegmentsEndpoint
    createSegment: typeof createSegmentEndpoint
    updateSegment: typeof updateSegmentEndpoint
    deleteSegment: typeof deleteSegmentEndpoint
  }
}
