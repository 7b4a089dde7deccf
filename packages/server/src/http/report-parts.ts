/**
 * The dashboard's reports as functions of a site and the query string their contract parsed
 * (`@pathlight/protocol` `contracts/reports.ts`), shared by their GET routes (`reports.ts`) and the
 * batch route (`report-batch.ts`), so that a report answers the same either way. Each function resolves
 * the range first and returns the report ready to run (`Prepared`, its answer typed by the report's
 * contract, so the compiler checks it against the schema the document shows): a batch checks every part
 * before it runs any. Failures are AppError 400 naming the parameter (`query/params.ts`); answers are
 * the `{data, meta}` of the table in `reports.ts`.
 */
import {
  type AnalyticsQuery,
  type breakdownEndpoint,
  type engagementEndpoint,
  type eventNamesEndpoint,
  type eventsEndpoint,
  type liveEndpoint,
  type pageStatsEndpoint,
  type QueryOf,
  type seriesEndpoint,
  seriesMetrics,
  type sessionsEndpoint,
  type statsEndpoint,
  type webVitalsEndpoint,
} from '@pathlight/protocol'
import { listAnnotations } from '../annotations/annotations.js'
import { type BreakdownName, breakdowns, queryBreakdown } from '../query/breakdown.js'
import { withComparedRows } from '../query/compared-breakdown.js'
import { alignCompared } from '../query/compared-series.js'
import { queryEventList } from '../query/event-list.js'
import { queryEventNames } from '../query/event-names.js'
import { withImportedBreakdown, withImportedStats } from '../query/imported-totals.js'
import { queryLiveVisitors } from '../query/live-visitors.js'
import { queryEngagementSummary } from '../query/page-engagement.js'
import { queryPageStats } from '../query/page-stats.js'
import { comparedPeriod, comparisonAsked } from '../query/previous-period.js'
import { withReplayFlags } from '../query/replay.js'
import { querySessionList } from '../query/session-list.js'
import { queryStatsReport } from '../query/stats-report.js'
import { queryTimeseries } from '../query/timeseries.js'
import { queryWebVitals, queryWebVitalsBy, webVitalThresholds } from '../query/web-vitals.js'
import { behaviourReportParts } from './behaviour-report-parts.js'
import { conversionReportLookups, conversionReportParts } from './conversion-report-parts.js'
import { pageMeta } from './page-meta.js'
import { pageReportParts } from './page-report-parts.js'
import {
  metadataOf,
  type Prepared,
  type PreparedReport,
  type ReportLookup,
  type ReportPartDeps,
  reportScope,
} from './report-part.js'
import { v1ReportParts } from './v1-report-parts.js'
import { wholeList } from './whole-list.js'

export type { Prepared, PreparedReport, ReportAnswer, ReportPartDeps, ReportPath } from './report-part.js'

/** Whether `name` is a breakdown dimension (`query/breakdown.ts`). */
export const isBreakdown = (name: string): name is BreakdownName => Object.hasOwn(breakdowns, name)

const scopeOf = reportScope

/**
 * The reports, by the name of their GET route (`breakdown` takes the dimension apart, as its route
 * takes it from the path). `query` is the query string as the report's contract parsed it: the common
 * parameters and the report's own.
 * @throws AppError 400 naming the invalid parameter (a time zone, filters, a range), before anything runs
 */
const coreReportParts = {
  stats(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof statsEndpoint>,
  ): Prepared<typeof statsEndpoint> {
    const scope = scopeOf(deps, siteId, query)
    const { bucket } = query
    const compared = comparedPeriod(scope.params)
    return async () =>
      withImportedStats(deps.events, scope, compared, await queryStatsReport(deps.events, scope, bucket))
  },

  /**
   * The time series alone, with the counts asked for (the chart's figure): no totals. With `compare`
   * (other than none), each point carries the compared range's bucket at its position.
   */
  series(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof seriesEndpoint>,
  ): Prepared<typeof seriesEndpoint> {
    const scope = scopeOf(deps, siteId, query)
    const { bucket, metrics } = query
    // In the protocol's order, however listed, and each once.
    const counts = seriesMetrics.filter((metric) => (metrics ?? seriesMetrics).includes(metric))
    const compared = comparisonAsked(scope.params) ? comparedPeriod(scope.params) : null
    return async () => {
      const [series, before] = await Promise.all([
        queryTimeseries(deps.events, scope, bucket, counts),
        compared ? queryTimeseries(deps.events, { ...scope, params: compared }, bucket, counts) : undefined,
      ])
      return {
        data: before ? alignCompared(series, before) : series,
        meta: {
          startDate: scope.params.startDate,
          endDate: scope.params.endDate,
          ...(compared ? { previousStartDate: compared.startDate, previousEndDate: compared.endDate } : {}),
          timeZone: scope.params.timeZoneName ?? scope.params.timeZone,
          bucket,
          metrics: counts,
        },
      }
    }
  },

  breakdown(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof breakdownEndpoint>,
    name: BreakdownName,
  ): Prepared<typeof breakdownEndpoint> {
    const scope = scopeOf(deps, siteId, query)
    const { metrics } = query
    const compared = comparisonAsked(scope.params) ? comparedPeriod(scope.params) : null
    return async () => {
      const page = await withImportedBreakdown(deps.events, scope, name, metrics, (one) =>
        queryBreakdown(deps.events, one, name, metrics),
      )
      if (!compared) return { data: page.rows, meta: pageMeta(scope.params, page.total) }
      const { rows, total } = await withComparedRows(deps.events, scope, compared, name, page, metrics)
      return {
        data: rows,
        meta: {
          ...pageMeta(scope.params, total),
          previousStartDate: compared.startDate,
          previousEndDate: compared.endDate,
        },
      }
    }
  },

  sessions(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof sessionsEndpoint>,
  ): Prepared<typeof sessionsEndpoint> {
    const scope = scopeOf(deps, siteId, query)
    const { has_replay } = query
    return async () => {
      const { data, total } = await querySessionList(deps.events, scope, {
        onlyReplayed: has_replay === true,
      })
      const rows = await withReplayFlags(deps.events, scope.siteId, data)
      return { data: rows, meta: pageMeta(scope.params, total) }
    }
  },

  events(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof eventsEndpoint>,
  ): Prepared<typeof eventsEndpoint> {
    const scope = scopeOf(deps, siteId, query)
    const own = query
    return async () => {
      const page = await queryEventList(deps.events, scope, {
        types: own.type,
        eventName: own.event_name,
        cursor: own.cursor,
        limit: scope.params.limit,
      })
      return { data: page.data, meta: { nextCursor: page.nextCursor, limit: scope.params.limit } }
    }
  },

  'event-names'(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof eventNamesEndpoint>,
  ): Prepared<typeof eventNamesEndpoint> {
    const scope = scopeOf(deps, siteId, query)
    const { metrics } = query
    return async () => {
      const { data, total } = await queryEventNames(deps.events, scope, metrics)
      return { data, meta: pageMeta(scope.params, total) }
    }
  },

  'web-vitals'(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof webVitalsEndpoint>,
  ): Prepared<typeof webVitalsEndpoint> {
    const scope = scopeOf(deps, siteId, query)
    const { by } = query
    return async () => {
      if (!by)
        return { data: await queryWebVitals(deps.events, scope), meta: { thresholds: webVitalThresholds } }
      const { data, total } = await queryWebVitalsBy(deps.events, scope, by)
      return { data, meta: { ...pageMeta(scope.params, total), by, thresholds: webVitalThresholds } }
    }
  },

  'page-stats'(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof pageStatsEndpoint>,
  ): Prepared<typeof pageStatsEndpoint> {
    const scope = scopeOf(deps, siteId, query)
    const sort = { field: query.sort ?? 'pageviews', order: query.order ?? 'desc' } as const
    return async () => {
      const { data, total } = await queryPageStats(deps.events, scope, sort)
      return { data, meta: pageMeta(scope.params, total) }
    }
  },

  /** Site-wide engaged time per visit over the range (`query/page-engagement.ts`). */
  engagement(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof engagementEndpoint>,
  ): Prepared<typeof engagementEndpoint> {
    const scope = scopeOf(deps, siteId, query)
    const { startDate, endDate, timeZone, timeZoneName } = scope.params
    return async () => ({
      data: await queryEngagementSummary(deps.events, scope),
      meta: { startDate, endDate, timeZone: timeZoneName ?? timeZone },
    })
  },

  /** The annotations on the days of the range (as `GET .../annotations` with the range's days). */
  annotations(deps: ReportPartDeps, siteId: number, query: AnalyticsQuery): PreparedReport {
    const { startDate, endDate } = scopeOf(deps, siteId, query).params
    const db = metadataOf(deps, 'annotations')
    return async () => wholeList(await listAnnotations(db, siteId, { startDate, endDate }))
  },

  /** The last 5 minutes: takes no parameters. */
  live(deps: ReportPartDeps, siteId: number): Prepared<typeof liveEndpoint> {
    return async () => ({ data: await queryLiveVisitors(deps.events, siteId, deps.clock()), meta: {} })
  },
}

/**
 * Every registered report's function, by its name in the registry (`contracts/report-registry.ts` of
 * the protocol): the core reports above, then each group's own file.
 */
export const reportParts = {
  ...coreReportParts,
  ...behaviourReportParts,
  ...v1ReportParts,
  ...pageReportParts,
  ...conversionReportParts,
}

/**
 * The lookups of the registered reports whose path names a saved definition (`ReportLookup`), by
 * report name: each group's own, spread in as its report functions are.
 */
export const reportLookups: Partial<Record<keyof typeof reportParts, ReportLookup>> = {
  ...conversionReportLookups,
}
