/**
 * The funnel endpoints of a site: ad-hoc figures and sessions for any reader (POSTs that only read),
 * saved funnels read by members (with their figures) and written by admins and owners.
 */
import { z } from 'zod'
import { funnel, funnelReport, funnelWithResults } from '../behaviour-schemas.js'
import { endpoint } from '../contract.js'
import {
  createFunnelBody,
  funnelQuery,
  funnelQueryBody,
  funnelSessionsQuery,
  updateFunnelBody,
} from '../funnel-input.js'
import { session } from '../report-schemas.js'
import { pagedList, successData, successList, successResponse } from '../response-schemas.js'
import * as at from './addresses.js'

/** `:siteId`, as text: an id that names no site is a 404 of the access check, not a 400. */
const siteParams = z.object({ siteId: z.string() })
/** `:siteId` and `:funnelId`, as text (a malformed funnel id is the funnel's 404). */
const funnelParams = z.object({ siteId: z.string(), funnelId: z.string() })

const noWriter = 'No credentials (a private link key does not write), or an invalid API key'
const sessionsDescription = 'The sessions that reached a step, or reached it and dropped before the next one.'

/** `POST /api/sites/:siteId/funnels/query`: the figures of an ad-hoc funnel. */
export const funnelFiguresEndpoint = endpoint({
  ...at.funnelFigures,
  summary: 'Figures of an ad-hoc funnel',
  description:
    'Per step: sessions (after filters) that matched steps 1..k in order (each step at or after the ' +
    'previous; equal timestamps count as in order), conversion from the previous step and from the ' +
    'start (fractions), drop-off and the median seconds from the previous step.',
  tag: 'Funnels',
  access: 'reader',
  keyUse: 'read',
  params: siteParams,
  query: funnelQuery,
  body: funnelQueryBody,
  bodySubject: 'funnel',
  responses: { 200: { description: 'The figures', schema: z.object({ data: funnelReport }) } },
})

/** `POST /api/sites/:siteId/funnels/sessions`: the sessions behind a step of an ad-hoc funnel. */
export const funnelSessionsEndpoint = endpoint({
  ...at.funnelSessions,
  summary: 'Sessions behind an ad-hoc funnel step',
  description: sessionsDescription,
  tag: 'Funnels',
  access: 'reader',
  keyUse: 'read',
  params: siteParams,
  query: funnelSessionsQuery,
  body: funnelQueryBody,
  bodySubject: 'funnel',
  responses: { 200: { description: 'Newest first', schema: pagedList(session) } },
})

/** `GET /api/sites/:siteId/funnels`: the site's saved funnels, oldest first. */
export const listFunnelsEndpoint = endpoint({
  ...at.listFunnels,
  summary: "The site's saved funnels",
  tag: 'Funnels',
  access: 'member',
  params: siteParams,
  responses: { 200: { description: 'Oldest first', schema: successList(funnel) } },
})

/** `POST /api/sites/:siteId/funnels`: save a funnel; answers it. */
export const createFunnelEndpoint = endpoint({
  ...at.createFunnel,
  summary: 'Save a funnel',
  tag: 'Funnels',
  access: 'admin',
  params: siteParams,
  body: createFunnelBody,
  bodySubject: 'funnel',
  responses: { 201: { description: 'Created', schema: successData(funnel) }, 401: noWriter },
})

/** `GET /api/sites/:siteId/funnels/:funnelId`: a saved funnel with its figures over the range. */
export const getFunnelEndpoint = endpoint({
  ...at.getFunnel,
  summary: 'A saved funnel with its figures over the range',
  tag: 'Funnels',
  access: 'member',
  params: funnelParams,
  query: funnelQuery,
  responses: {
    200: { description: 'The funnel and its figures', schema: z.object({ data: funnelWithResults }) },
  },
})

/** `GET /api/sites/:siteId/funnels/:funnelId/sessions`: the sessions behind a saved funnel's step. */
export const savedFunnelSessionsEndpoint = endpoint({
  ...at.savedFunnelSessions,
  summary: 'Sessions behind a saved funnel step',
  description: sessionsDescription,
  tag: 'Funnels',
  access: 'member',
  params: funnelParams,
  query: funnelSessionsQuery,
  responses: { 200: { description: 'Newest first', schema: pagedList(session) } },
})

/** `PATCH /api/sites/:siteId/funnels/:funnelId`: change a saved funnel; answers it after. */
export const updateFunnelEndpoint = endpoint({
  ...at.updateFunnel,
  summary: 'Change a saved funnel',
  description: 'Any subset of `{name, steps}` (`steps` replaced whole).',
  tag: 'Funnels',
  access: 'admin',
  params: funnelParams,
  body: updateFunnelBody,
  bodySubject: 'funnel',
  responses: {
    200: { description: 'The funnel after the change', schema: successData(funnel) },
    401: noWriter,
  },
})

/** `DELETE /api/sites/:siteId/funnels/:funnelId`: delete a saved funnel, irreversibly. */
export const deleteFunnelEndpoint = endpoint({
  ...at.deleteFunnel,
  summary: 'Delete a saved funnel',
  tag: 'Funnels',
  access: 'admin',
  params: funnelParams,
  responses: { 200: { description: 'Deleted', schema: successResponse }, 401: noWriter },
})

/** Every funnel endpoint (the route/contract coverage test reads these). */
export const funnelEndpoints = [
  funnelFiguresEndpoint,
  funnelSessionsEndpoint,
  listFunnelsEndpoint,
  createFunnelEndpoint,
  getFunnelEndpoint,
  savedFunnelSessionsEndpoint,
  updateFunnelEndpoint,
  deleteFunnelEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    funnelFigures: typeof funnelFiguresEndpoint
    funnelSessions: typeof funnelSessionsEndpoint
    listFunnels: typeof listFunnelsEndpoint
    createFunnel: typeof createFunnelEndpoint
    getFunnel: typeof getFunnelEndpoint
    savedFunnelSessions: typeof savedFunnelSessionsEndpoint
    updateFunnel: typeof updateFunnelEndpoint
    deleteFunnel: typeof deleteFunnelEndpoint
  }
}
