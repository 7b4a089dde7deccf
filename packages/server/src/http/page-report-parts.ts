/**
 * The report functions of the reads that have a page or panel of their own beside the overview: the
 * custom properties (their keys, one key's values), the crawlers of the site's access logs, and a
 * page's heatmap. Each is `(deps, siteId, query)` as every registered report (`report-part.ts`): it
 * resolves the range first (AppError 400 naming the parameter) and returns the report ready to run,
 * answering exactly what its route answered before it was registered from the report registry.
 */
import type {
  listPropertyKeysEndpoint,
  propertyBreakdownEndpoint,
  QueryOf,
  siteCrawlersEndpoint,
  siteHeatmapEndpoint,
} from '@pathlight/protocol'
import { queryCrawlerReport } from '../crawlers/crawler-report.js'
import { queryHeatmap } from '../query/heatmap.js'
import { queryPropertyBreakdown } from '../query/property-breakdown.js'
import { queryPropertyKeys } from '../query/property-keys.js'
import { pageMeta } from './page-meta.js'
import { type Prepared, type ReportPartDeps, reportScope } from './report-part.js'

/**
 * The properties, crawlers and heatmap reports, by their name in the report registry.
 * @throws AppError 400 naming the invalid parameter (a time zone, filters, a range), before anything runs
 */
export const pageReportParts = {
  /** The top-level keys of the custom events in the range (of `event_name` alone if given), paged. */
  properties(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof listPropertyKeysEndpoint>,
  ): Prepared<typeof listPropertyKeysEndpoint> {
    const scope = reportScope(deps, siteId, query)
    return async () => {
      const { data, total } = await queryPropertyKeys(deps.events, scope, query.event_name)
      return { data, meta: pageMeta(scope.params, total) }
    }
  },

  /** One key's (`property`) values in canonical text, most events first, paged. */
  'property-breakdown'(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof propertyBreakdownEndpoint>,
  ): Prepared<typeof propertyBreakdownEndpoint> {
    const scope = reportScope(deps, siteId, query)
    return async () => {
      const { data, total } = await queryPropertyBreakdown(
        deps.events,
        scope,
        query.property,
        query.event_name,
      )
      return { data, meta: pageMeta(scope.params, total) }
    }
  },

  /**
   * The Crawlers page's report over the range, from the access logs' crawler requests in the events
   * store (`crawlers/crawler-report.ts`): `{success: true, data}`, the range alone (no filters apply).
   */
  crawlers(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof siteCrawlersEndpoint>,
  ): Prepared<typeof siteCrawlersEndpoint> {
    const { params } = reportScope(deps, siteId, query)
    return async () => ({
      success: true as const,
      data: await queryCrawlerReport(deps.events, siteId, params),
    })
  },

  /**
   * The heatmap of the pathname `page` (at `viewport` if given) over the range and filters:
   * `{success: true, data}`. The query's `page` is the pathname, so the common parameters resolve
   * without it (a heatmap is not paged).
   */
  heatmap(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof siteHeatmapEndpoint>,
  ): Prepared<typeof siteHeatmapEndpoint> {
    const { page, viewport, ...common } = query
    const scope = reportScope(deps, siteId, common)
    return async () => ({
      success: true as const,
      data: await queryHeatmap(deps.events, scope, { page, viewport }),
    })
  },
}
