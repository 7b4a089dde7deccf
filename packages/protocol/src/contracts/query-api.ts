/**
 * `POST /api/v2/query`: the Query API, Plausible's Stats API v2 request and answer over a site's
 * events (`query-api-request.ts`, `query-api-response.ts`), for an API key of a member of the site's
 * organization, on the key's request budget as the v1 routes.
 */
import { endpoint } from '../contract.js'
import { queryApiBody } from '../query-api-request.js'
import { queryApiAnswer } from '../query-api-response.js'
import * as at from './addresses.js'

/** `POST /api/v2/query`. */
export const queryApiEndpoint = endpoint({
  ...at.queryApi,
  summary: 'Any figures of a site: metrics by dimensions, filtered (Plausible Stats API v2 compatible)',
  description:
    'The body names the site (`site_id`: its id), `metrics`, `date_range` and optionally `dimensions`, ' +
    '`filters` (nested `and`/`or`/`not`, saved segments), `order_by`, `include` (`time_labels`, ' +
    '`total_rows`, `comparisons`), `pagination` and `time_zone` (default UTC). See docs/api.md ' +
    '"Query API" for the metrics, the dimensions and where the figures follow Plausible rather than ' +
    'the dashboard.',
  tag: 'v1',
  access: 'apiKey',
  body: queryApiBody,
  bodySubject: 'query',
  responses: {
    200: { description: 'The rows, the meta and the query as run', schema: queryApiAnswer },
    404: 'Not found, or not in one of your organizations (the site or the segment)',
  },
})

/** The Query API's endpoints (the route/contract coverage test reads these). */
export const queryApiEndpoints = [queryApiEndpoint] as const

declare module './addresses.js' {
  interface EndpointContracts {
    queryApi: typeof queryApiEndpoint
  }
}
