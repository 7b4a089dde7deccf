/**
 * The stats report shared by the v1 API and the dashboard: overview totals (plus `events`, the custom
 * events passing the filters) for the range and for the compared range (by default the period of
 * equal length just before it; `compare` of the request, `previous-period.ts`), the relative change
 * per figure (null when the previous value is 0), and with a bucket (the protocol's `SeriesBucket`),
 * the time series of the range (`timeseries.ts`), each point with the compared range's bucket at its
 * position (`compared-series.ts`) when the request names a comparison (`compare`: the chart's second
 * line costs a query). With `compare=none`, the range's figures alone.
 * Answers `{data, meta}`, the protocol's `Stats` and `StatsMeta`. From the rollups the two periods'
 * overviews are one query and their custom event counts another (three with the series, against five
 * asked apart; bench/README.md "The stats report's two periods in one query each"); from raw events, one
 * per period.
 */
import type { SeriesBucket } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import { alignCompared } from './compared-series.js'
import { queryCustomEventCount, queryCustomEventCountPeriods } from './custom-event-count.js'
import { queryOverview, queryOverviewPeriods } from './overview.js'
import { comparedPeriod, comparisonAsked, relativeChange } from './previous-period.js'
import type { ReportScope } from './report-scope.js'
import { queryTimeseries } from './timeseries.js'

/**
 * The totals of the scope and of the period before it: overviews and custom event counts, each pair
 * one query where the rollups serve both periods.
 */
async function totals(events: EventsStore, scope: ReportScope, previous: ReportScope) {
  const [overviews, custom] = await Promise.all([
    queryOverviewPeriods(events, scope, previous),
    queryCustomEventCountPeriods(events, scope, previous),
  ])
  return {
    current: { ...overviews.current, events: custom.current },
    previous: { ...overviews.previous, events: custom.previous },
  }
}

/** The totals of the scope alone (`compare=none`). */
async function currentTotals(events: EventsStore, scope: ReportScope) {
  const [overview, custom] = await Promise.all([
    queryOverview(events, scope),
    queryCustomEventCount(events, scope),
  ])
  return { ...overview, events: custom }
}

/** @throws AppError 400 when the bucket makes too many points (of the range or the compared range) */
export async function queryStatsReport(events: EventsStore, scope: ReportScope, bucket?: SeriesBucket) {
  const compared = comparedPeriod(scope.params)
  const meta = {
    startDate: scope.params.startDate,
    endDate: scope.params.endDate,
    timeZone: scope.params.timeZoneName ?? scope.params.timeZone,
    ...(bucket ? { bucket } : {}),
  }
  if (!compared) {
    const [current, series] = await Promise.all([
      currentTotals(events, scope),
      bucket ? queryTimeseries(events, scope, bucket) : Promise.resolve(undefined),
    ])
    return { data: { current, ...(series ? { series } : {}) }, meta }
  }
  const previousScope = { ...scope, params: compared }
  const [{ current, previous }, series, previousSeries] = await Promise.all([
    totals(events, scope, previousScope),
    bucket ? queryTimeseries(events, scope, bucket) : Promise.resolve(undefined),
    bucket && comparisonAsked(scope.params)
      ? queryTimeseries(events, previousScope, bucket)
      : Promise.resolve(undefined),
  ])
  const points = series && previousSeries ? alignCompared(series, previousSeries) : series
  return {
    data: {
      current,
      previous,
      change: relativeChange(current, previous),
      ...(points ? { series: points } : {}),
    },
    meta: {
      ...meta,
      previousStartDate: compared.startDate,
      previousEndDate: compared.endDate,
    },
  }
}
