/**
 * The behaviour reports of a site: retention cohorts (dashboard and v1) and user journeys. Reads take
 * the common analytics parameters and their own, parsed from query-string text with messages naming
 * the parameter.
 */
import { z } from 'zod'
import { analyticsQuery, enumParam, integerParam, single } from '../analytics-query.js'
import { endpoint } from '../contract.js'
import { retentionPeriods } from '../enums.js'
import { doc } from '../openapi-registry.js'
import { journeyLink, journeyPath, journeysMeta, retentionCohort, retentionMeta } from '../schemas.js'
import * as at from './addresses.js'
import { siteParams } from './goals.js'

/** Most periods (cohorts) one retention report may have. */
export const MAX_RETENTION_PERIODS = 256

/** Bounds of the journeys' `steps` and `limit`, and their defaults. */
export const MIN_JOURNEY_STEPS = 2
export const MAX_JOURNEY_STEPS = 6
export const DEFAULT_JOURNEY_STEPS = 4
export const DEFAULT_JOURNEY_LIMIT = 20
export const MAX_JOURNEY_LIMIT = 200

/** Longest `start_path` / `end_path`, in characters. */
const MAX_PATH_LENGTH = 2048

/** `GET .../retention` (and v1): the common parameters and the cohort period. */
export const retentionQuery = analyticsQuery.extend({
  period: doc(
    enumParam('period', retentionPeriods),
    `Cohort period: calendar day, week (Monday to Sunday) or month in time_zone; default week. At most ${MAX_RETENTION_PERIODS} periods`,
  ).optional(),
})

const retentionAnswer = {
  description: 'One cohort per period of the range, oldest first',
  schema: z.object({ data: z.array(retentionCohort), meta: retentionMeta }),
}

const retentionDescription =
  "A visitor's cohort is the period of their first counted event (pageview, custom event or outbound " +
  'click; not web vitals or errors) in the range. `retained[k]` counts the visitors of the cohort with a ' +
  'counted event in the k-th period after it, up to the end of the range (a partial last period counts). ' +
  'Filters restrict the events considered. Every period of the range is a cohort, empty ones included; ' +
  '`page` and `limit` are ignored.'

/** A pathname parameter of the journeys; empty text counts as absent. */
const pathParam = (name: string) =>
  single(name)
    .max(MAX_PATH_LENGTH, `${name} must be at most ${MAX_PATH_LENGTH} characters`)
    .transform((value) => (value === '' ? undefined : value))

/** `GET .../journeys`: the common parameters but paging, and the journeys' own. */
export const journeysQuery = analyticsQuery.omit({ page: true, limit: true }).extend({
  steps: doc(
    integerParam('steps', MIN_JOURNEY_STEPS, MAX_JOURNEY_STEPS),
    `Most pages per journey; default ${DEFAULT_JOURNEY_STEPS}`,
  ).optional(),
  start_path: doc(
    pathParam('start_path'),
    'Journeys start at the first pageview of this pathname (exact); sessions without it are left out',
  ).optional(),
  end_path: doc(
    pathParam('end_path'),
    'Journeys end at the first pageview of this pathname (after `start_path` when both are given); ' +
      'sessions without it are left out',
  ).optional(),
  limit: doc(
    integerParam('limit', 1, MAX_JOURNEY_LIMIT),
    `Most journeys returned; default ${DEFAULT_JOURNEY_LIMIT}`,
  ).optional(),
})

/** `GET /api/sites/:siteId/retention`. */
export const retentionEndpoint = endpoint({
  ...at.retention,
  summary: 'Retention cohorts: visitors by first period, and how many came back in each later one',
  description: retentionDescription,
  tag: 'Reports',
  access: 'reader',
  params: siteParams,
  query: retentionQuery,
  responses: { 200: retentionAnswer },
})

/** `GET /api/v1/sites/:siteId/retention`: as the dashboard's, for an API key. */
export const v1RetentionEndpoint = endpoint({
  ...at.v1Retention,
  summary: 'Retention cohorts: visitors by first period, and how many came back in each later one',
  description: retentionDescription,
  tag: 'v1',
  access: 'apiKey',
  params: siteParams,
  query: retentionQuery,
  responses: { 200: retentionAnswer, 404: 'Not found, or not in one of your organizations' },
})

/** `GET /api/sites/:siteId/journeys`. */
export const journeysEndpoint = endpoint({
  ...at.journeys,
  summary: 'User journeys: the most common page sequences of sessions, and their transitions',
  description:
    "Per counted session, its pageviews' pathnames in time order with consecutive repeats " +
    'collapsed, cut to `steps` pages: from its start, from the first `start_path`, ending at ' +
    'the first `end_path`, or (both) from the first `start_path` to the next `end_path` when ' +
    'that is at most `steps` pages. Journeys of one page are not counted. `links` are the ' +
    'transitions of the returned journeys (steps 1-based), for a Sankey chart.',
  tag: 'Reports',
  access: 'reader',
  params: siteParams,
  query: journeysQuery,
  responses: {
    200: {
      description: 'The top journeys, most sessions first, and their transitions',
      schema: z.object({ data: z.array(journeyPath), links: z.array(journeyLink), meta: journeysMeta }),
    },
  },
})

/** Every behaviour report endpoint (the route/contract coverage test reads these). */
export const behaviourEndpoints = [retentionEndpoint, v1RetentionEndpoint, journeysEndpoint] as const

declare module './addresses.js' {
  interface EndpointContracts {
    retention: typeof retentionEndpoint
    v1Retention: typeof v1RetentionEndpoint
    journeys: typeof journeysEndpoint
  }
}
