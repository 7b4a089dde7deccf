/**
 * v1: `GET /api/v1/sites/{siteId}/experiments`: the site's A/B experiments (oldest first, paginated)
 * with their results over the common query parameters: per variant exposed sessions, conversions,
 * conversion rate, uplift against control, z-score, two-sided p-value and the 95 % interval of the
 * difference (method: experiments/two-proportion-test.ts, README "Experiments").
 */
import { experimentWithResults, pagedList } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForMember } from '../../auth/site-access.js'
import { countExperiments } from '../../experiments/experiments.js'
import { listExperimentsWithResults } from '../../experiments/list-experiments-with-results.js'
import { parseQueryParams } from '../../query/params.js'
import type { Clock } from '../../shared/time.js'
import type { EventsStore } from '../../storage/events/events-store.js'
import type { MetadataDb } from '../../storage/metadata/db.js'
import { analyticsQuery } from '../analytics-query.js'
import { callerOf } from '../caller-of.js'
import { notMine } from '../openapi/doc-parts.js'
import { json } from '../openapi/route-doc.js'
import { pageMeta } from '../page-meta.js'

type Params = { Params: { siteId: string }; Querystring: Record<string, unknown> }

export async function v1ExperimentRoutes(
  app: FastifyInstance,
  { db, events, clock }: { db: MetadataDb; events: EventsStore; clock: Clock },
) {
  app.get<Params>(
    '/api/v1/sites/:siteId/experiments',
    {
      config: {
        doc: {
          summary: 'Experiments with their results over the range',
          description:
            'Per variant: exposed sessions, conversions, conversion rate, uplift against the control, z-score, ' +
            'two-sided p-value and the 95 % interval of the difference.',
          tag: 'v1',
          access: 'apiKey',
          query: analyticsQuery,
          responses: { 200: json('Oldest first', pagedList(experimentWithResults)), 404: notMine },
        },
      },
    },
    async (request) => {
      const { site } = await siteForMember(db, callerOf(request).userId, request.params.siteId)
      const params = parseQueryParams(request.query, clock())
      const [data, total] = await Promise.all([
        listExperimentsWithResults(db, events, site.site_id, params),
        countExperiments(db, site.site_id),
      ])
      return { data, meta: pageMeta(params, total) }
    },
  )
}
