/**
 * The overview's first-paint batch (`POST /api/sites/{id}/reports`) started early: the site scope
 * starts it from the URL's view while the site and its event status load, instead of after both (the
 * overview mounts only once the site has events), and the overview takes that answer once. An answer
 * older than a few seconds, taken already, or for another query or parts, is not reused
 * (`prefetch-once.ts`).
 */
import type { ReportPart } from '@pathlight/protocol'
import { createReportsApi } from '../api/reports-api'
import { overviewParts } from './overview-parts'
import { createPrefetchOnce } from './prefetch-once'
import { daysOf, type ReportQuery, reportQueryOf } from './report-query'
import { bucketOf, parseReportView } from './report-view'

const prefetch = createPrefetchOnce<Record<string, unknown>>()

const keyOf = (query: ReportQuery, parts: readonly ReportPart[]) => JSON.stringify([query, parts])

/** Start loading the batch of `parts` for `query` (signed-in member: no private key). */
export function prefetchOverview(query: ReportQuery, parts: readonly ReportPart[]): void {
  prefetch.start(keyOf(query, parts), () => createReportsApi(query.siteId).batch(query, [...parts]))
}

/** Start the overview's batch for the view in `search` (the location's query string, without `?`). */
export function prefetchOverviewOf(siteId: number, search: string): void {
  const view = parseReportView(search)
  const query = reportQueryOf(siteId, view, Date.now())
  prefetchOverview(query, overviewParts(bucketOf(view, daysOf(query)), view.metric ?? 'visitors'))
}

/** The prefetched answer for exactly these arguments (once), or null. */
export function takeOverview(
  query: ReportQuery,
  parts: readonly ReportPart[],
): Promise<Record<string, unknown>> | null {
  return prefetch.take(keyOf(query, parts))
}
