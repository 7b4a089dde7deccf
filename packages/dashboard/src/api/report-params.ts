/**
 * The query string of a report query (`lib/report-query.ts`), written in this one place: every read
 * of the reports API and every batch sends its common parameters as `reportParams` gives them.
 */
import type { ContractAt, RequestOf } from '@pathlight/protocol'
import type * as endpoints from '@pathlight/protocol/addresses'
import type { ReportQuery } from '../lib/report-query'

/** The common analytics parameters as query values, as the contracts type them (the batch's query). */
export type ReportParams = NonNullable<RequestOf<ContractAt<typeof endpoints.reportBatch>>['query']>

/**
 * The common parameters of `query` as query values: its days and zone, its filters as JSON text, its
 * segment and its comparison, in that order, each left out when absent (`filters` when empty). The
 * site goes in the path.
 */
export function reportParams(query: ReportQuery) {
  const { compare } = query
  return {
    start_date: query.startDate,
    end_date: query.endDate,
    time_zone: query.timeZone,
    filters: query.filters.length > 0 ? JSON.stringify(query.filters) : undefined,
    segment: query.segment,
    compare: compare?.mode,
    compare_start_date: compare?.custom?.startDate,
    compare_end_date: compare?.custom?.endDate,
    match_day_of_week: compare?.matchDayOfWeek ? ('true' as const) : undefined,
  } satisfies ReportParams
}
