/**
 * The custom property endpoints of a site: the keys its custom events carry, and one key's values
 * broken down. Reads take any reader of the site and the common analytics parameters (filters too);
 * the v1 pair answers the same to an API key.
 */
import { z } from 'zod'
import { analyticsQuery, single } from '../analytics-query.js'
import { endpoint } from '../contract.js'
import { MAX_PROPERTY_KEY_LENGTH } from '../enums.js'
import { doc } from '../openapi-registry.js'
import { pagedList } from '../response-schemas.js'
import { count } from '../schema-fields.js'
import * as at from './addresses.js'
import { siteParams } from './goals.js'

/** Bound on `event_name`, in characters. */
const MAX_EVENT_NAME_LENGTH = 200

const eventName = doc(
  single('event_name')
    .min(1, 'event_name must not be empty')
    .max(MAX_EVENT_NAME_LENGTH, `event_name must be at most ${MAX_EVENT_NAME_LENGTH} characters`),
  'Only the custom events of this name',
).optional()

/** A property key: 1 to 100 printable characters (no Unicode category C). */
const propertyKey = doc(
  single('property')
    .min(1, 'property is required')
    .max(MAX_PROPERTY_KEY_LENGTH, `property must be at most ${MAX_PROPERTY_KEY_LENGTH} characters`)
    .regex(/^\P{C}*$/u, 'property must hold printable characters only'),
  'The key of the custom property (top level of the event’s properties)',
)

/** `GET .../properties`: the common parameters and `event_name`. */
export const propertyKeysQuery = analyticsQuery.extend({ event_name: eventName })
/** `GET .../breakdown/properties`: the common parameters, `property` and `event_name`. */
export const propertyBreakdownQuery = analyticsQuery.extend({ property: propertyKey, event_name: eventName })

const propertyKeyRow = z.object({
  key: doc(z.string(), 'A top-level key of the custom events’ properties'),
  events: count('Custom events in the range carrying the key'),
  visitors: count('Distinct visitors of those events'),
})

const propertyValueRow = z.object({
  value: doc(
    z.string(),
    'The value in canonical text: a string as it is, a number in its shortest form (3, "3" and 3.0 are ' +
      'one row "3"), true/false/null, an object or array as its JSON text',
  ),
  events: count('Custom events in the range with the value'),
  visitors: count('Distinct visitors of those events'),
})

/** One row of the keys report. */
export type PropertyKeyRow = z.output<typeof propertyKeyRow>
/** One row of the property breakdown. */
export type PropertyValueRow = z.output<typeof propertyValueRow>

/** `GET /api/sites/:siteId/properties`: the keys of the custom events in the range, most events first. */
export const listPropertyKeysEndpoint = endpoint({
  ...at.listPropertyKeys,
  summary: 'Custom property keys seen in the range',
  tag: 'Reports',
  access: 'reader',
  params: siteParams,
  query: propertyKeysQuery,
  responses: { 200: { description: 'Most events first', schema: pagedList(propertyKeyRow) } },
})

/** `GET /api/sites/:siteId/breakdown/properties`: one key's values, most events first, paged. */
export const propertyBreakdownEndpoint = endpoint({
  ...at.propertyBreakdown,
  summary: 'Values of one custom property',
  tag: 'Reports',
  access: 'reader',
  params: siteParams,
  query: propertyBreakdownQuery,
  responses: { 200: { description: 'Most events first', schema: pagedList(propertyValueRow) } },
})

const notMine = 'Not a site of your organizations (never revealed)'

/** `GET /api/v1/sites/:siteId/properties`: as the dashboard's keys, for an API key. */
export const v1ListPropertyKeysEndpoint = endpoint({
  ...at.v1ListPropertyKeys,
  summary: 'Custom property keys seen in the range',
  tag: 'v1',
  access: 'apiKey',
  params: siteParams,
  query: propertyKeysQuery,
  responses: { 200: { description: 'Most events first', schema: pagedList(propertyKeyRow) }, 404: notMine },
})

/** `GET /api/v1/sites/:siteId/breakdown/properties`: as the dashboard's breakdown, for an API key. */
export const v1PropertyBreakdownEndpoint = endpoint({
  ...at.v1PropertyBreakdown,
  summary: 'Values of one custom property',
  tag: 'v1',
  access: 'apiKey',
  params: siteParams,
  query: propertyBreakdownQuery,
  responses: { 200: { description: 'Most events first', schema: pagedList(propertyValueRow) }, 404: notMine },
})

/** Every property endpoint (the route/contract coverage test reads these). */
export const propertyEndpoints = [
  listPropertyKeysEndpoint,
  propertyBreakdownEndpoint,
  v1ListPropertyKeysEndpoint,
  v1PropertyBreakdownEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    listPropertyKeys: typeof listPropertyKeysEndpoint
    propertyBreakdown: typeof propertyBreakdownEndpoint
    v1ListPropertyKeys: typeof v1ListPropertyKeysEndpoint
    v1PropertyBreakdown: typeof v1PropertyBreakdownEndpoint
  }
}
