/**
 * v1: `GET /api/v1/sites/{siteId}/experiments`: the site's A/B experiments (oldest first, paginated)
 * with their results over the common query parameters: per variant exposed sessions, conversions,
 * conversion rate, uplift against control, z-score, two-sided p-value and the 95 % interval of the
 * difference (method: experiments/two-proportion-test.ts, README "Experiments").
 */
import { v1ExperimentsEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForMember } from '../../auth/site-access.js'
import { countExperiments } from '../../experiments/experiments.js'
import { listExperimentsWithResults } from '../../experiments/list-experiments-with-results.js'
import { resolveQueryParams } from '../../query/params.js'
import type { Clock } from '../../shared/time.js'
import type { EventsStore } from '../../storage/events/events-store.js'
import type { MetadataDb } from '../../storage/metadata/db.js'
import { pageMeta } from '../page-meta.js'
import { route } from '../route.js'

/** Register the v1 experiments with results, from its contract (inside the v1 scope, which authenticates the key). */
export async function v1ExperimentRoutes(
  app: FastifyInstance,
  { db, events, clock }: { db: MetadataDb; events: EventsStore; clock: Clock },
) {
  route(app, v1ExperimentsEndpoint, {
    resolve: ({ params, caller }) => siteForMember(db, caller.userId, params.siteId),
    handle: async ({ query, resolved: { site } }) => {
      const params = resolveQueryParams(query, clock())
      const [data, total] = await Promise.all([
        listExperimentsWithResults(db, events, site.site_id, params),
        countExperiments(db, site.site_id),
      ])
      return { data, meta: pageMeta(params, total) }
    },
  })
}
