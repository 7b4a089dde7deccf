/**
 * `useReportPart(ctx, part, batch)`: what a card asks, a report part (`overview-parts.ts`), loaded for
 * the page's query: from the page's first-paint batch when given and it answers the part, else alone
 * with the part's GET request. Loaded again whenever the query or the part changes (the key is both).
 */
import type { PartAnswer, RegisteredPart } from '../api/part-request'
import type { ReportsApi } from '../api/reports-api'
import type { ReportBatch } from './report-batch'
import type { ReportQuery } from './report-query'
import { type Report, useReport } from './use-report'

/** The page's query and its reports API (a report context has both). */
export interface PartSource {
  query: ReportQuery
  reports: ReportsApi
}

/** The answer to `part` over `source.query`, through `batch` when given. */
export function useReportPart<P extends RegisteredPart>(
  source: PartSource,
  part: P,
  batch?: ReportBatch,
): Report<PartAnswer<P['name']>> {
  const { query, reports } = source
  return useReport(JSON.stringify([query, part]), () =>
    batch ? batch.load(part) : reports.part(query, part),
  )
}
