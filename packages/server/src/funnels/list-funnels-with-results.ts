/**
 * What the v1 API lists: a site's saved funnels, each with its figures over the request's range and
 * filters (`query/funnel-report.ts`). One events query per funnel.
 */
import type { FunnelWithResults } from '@pathlight/protocol'
import { queryFunnelReport } from '../query/funnel-report.js'
import { offsetOf, type QueryParams } from '../query/params.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { listFunnels } from './funnels.js'

/**
 * A page of the site's funnels (oldest first, `params.page` and `params.limit`), each with
 * `results: {steps}`.
 * @param siteId a site the caller may read (access is the route's business)
 * @throws AppError 400 when the events store refuses a request value (a regex filter, a time zone)
 */
export async function listFunnelsWithResults(
  db: MetadataDb,
  events: EventsStore,
  siteId: number,
  params: QueryParams,
): Promise<FunnelWithResults[]> {
  const funnels = await listFunnels(db, siteId, { offset: offsetOf(params), limit: params.limit })
  const scope = { siteId, params }
  return Promise.all(
    funnels.map(async (funnel) => ({
      ...funnel,
      results: await queryFunnelReport(events, scope, funnel.steps),
    })),
  )
}
