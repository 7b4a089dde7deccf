/**
 * The rows every report starts from: one site's events in the requested range. The condition uses the
 * raw `site_id` and `timestamp` columns so that ClickHouse prunes on the table's primary key
 * (site_id, toDate(timestamp), timestamp) and its monthly partitions.
 */
import { toClickHouseTime } from '../storage/events/clickhouse-time.js'
import type { SqlFragment } from './compiled-query.js'
import type { CompiledFilters } from './filters.js'
import { compileFilters } from './filters.js'
import type { QueryParams } from './params.js'

/** A report's plan input: which site, which parameters. */
export interface ReportScope {
  siteId: number
  params: QueryParams
  /**
   * false: read raw events even where the rollups could answer (tests and benchmarks compare both).
   * Default true (`plan-report.ts` says when they can).
   */
  rollups?: boolean
}

/** The scope's condition on `events`: site and half-open UTC time range. */
export const SCOPE_SQL =
  "site_id = {site:UInt32} AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')}"

/** The scope as a WHERE condition with its values (`from`/`to` as 'YYYY-MM-DD hh:mm:ss.sss', UTC). */
export function scopeOf(scope: ReportScope): SqlFragment {
  return {
    sql: SCOPE_SQL,
    params: {
      site: scope.siteId,
      from: toClickHouseTime(scope.params.from),
      to: toClickHouseTime(scope.params.to),
    },
  }
}

/** The scope's filters, compiled. */
export const filtersOf = (scope: ReportScope): CompiledFilters => compileFilters(scope.params.filters)
