/**
 * What the v1 API lists: a site's experiments, each with its results over the request's range and
 * filters (`query/experiment-results.ts`). One events query per experiment.
 */

import { queryExperimentResults } from '../query/experiment-results.js'
import { offsetOf, type QueryParams } from '../query/params.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { ExperimentWithResults } from './experiment.js'
import { goalOfSite, listExperiments } from './experiments.js'

/**
 * A page of the site's experiments (oldest first, `params.page` and `params.limit`), each with
 * `results: {variants, crossovers, totalExposedSessions}`. An experiment whose goal was deleted
 * (`goalId` null) gets its exposures, with conversions, rates and statistics null.
 * @param siteId a site the caller may read (access is the route's business)
 * @param params the parsed common query parameters (`parseQueryParams`)
 * @throws AppError 400 when the events store refuses a request value (a regex filter, a time zone)
 */
export async function listExperimentsWithResults(
  db: MetadataDb,
  events: EventsStore,
  siteId: number,
  params: QueryParams,
): Promise<ExperimentWithResults[]> {
  const experiments = await listExperiments(db, siteId, { offset: offsetOf(params), limit: params.limit })
  const scope = { siteId, params }
  return Promise.all(
    experiments.map(async (experiment) => {
      const goal = experiment.goalId === null ? null : await goalOfSite(db, siteId, experiment.goalId)
      return { ...experiment, results: await queryExperimentResults(events, scope, experiment, goal) }
    }),
  )
}
