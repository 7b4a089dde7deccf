/**
 * `POST /api/v2/query`, the Query API (`query-api/run-query-api.ts`), registered from its contract
 * (`@pathlight/protocol` `contracts/query-api.ts`), which parses the body. Registered inside the v1
 * scope: an API key of scope `read` or `full`, on the key's request budget, as every v1 route.
 */
import { queryApiEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { runQueryApi } from '../query-api/run-query-api.js'
import type { Clock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { route } from './route.js'

/** Register the Query API route (inside the v1 scope, which authenticates the key). */
export async function queryApiRoutes(
  app: FastifyInstance,
  deps: { db: MetadataDb; events: EventsStore; clock: Clock },
) {
  route(app, queryApiEndpoint, async ({ body, caller }) => runQueryApi(deps, { userId: caller.userId }, body))
}
