/** The service's health, for load balancers and monitoring: public, no credentials. */
import { endpoint } from '../contract.js'
import { healthResponse } from '../response-schemas.js'
import * as at from './addresses.js'

/** `GET /api/health`: 200 when the stores answer and ingest keeps up, else 503 with the reasons. */
export const healthEndpoint = endpoint({
  ...at.health,
  summary: 'Health of the service, its stores and ingest',
  tag: 'Health',
  access: 'public',
  raw: true,
  responses: {
    200: { description: 'Both stores answer and ingest keeps up', schema: healthResponse },
    503: {
      description:
        'A store does not answer within 2 s or the process is shutting down (`unavailable`), or ingest is stalled (`degraded`); `reasons` says which',
      schema: healthResponse,
    },
  },
})

/** The health endpoint (the route/contract coverage test reads these). */
export const healthEndpoints = [healthEndpoint] as const

declare module './addresses.js' {
  interface EndpointContracts {
    health: typeof healthEndpoint
  }
}
