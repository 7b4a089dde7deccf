/**
 * The stats report shared by the v1 API and the dashboard: overview totals (plus `events`, the custom
 * events passing the filters) for the range and for the period of equal length just before it
 * (`previous-period.ts`), the relative change per figure (null when the previous value is 0), and
 * with a bucket (the protocol's `SeriesBucket`), the time series of the range (`timeseries.ts`).
 * Answers `{data, meta}`, the protocol's `Stats` and `StatsMeta`. From the rollups the two periods'
 * overviews are one query and their custom event counts another (three with the series, against five
 * asked apart; bench/README.md "The stats report's two periods in one query each"); from raw events, one
 * per period.
 */
import type { SeriesBucket } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import { queryCustomEventCountPeriods } from './custom-event-count.js'
import { queryOverviewPeriods } from './overview.js'
import { previousPeriod, relativeChange } from './previous-period.js'
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

/** @throws AppError 400 when the bucket makes too many points */
export async function queryStatsReport(events: EventsStore, scope: ReportScope, bucket?: SeriesBucket) {
  const previousScope = { ...scope, params: previousPeriod(scope.params) }
  const [{ current, previous }, series] = await Promise.all([
    totals(events, scope, previousScope),
    bucket ? queryTimeseries(events, scope, bucket) : Promise.resolve(undefined),
  ])
  return {
    data: { current, previous, change: relativeChange(current, previous), ...(series ? { series } : {}) },
    meta: {
      startDate: scope.params.startDate,
      endDate: scope.params.endDate,
      previousStartDate: previousScope.params.startDate,
      previousEndDate: previousScope.params.endDate,
      timeZone: scope.params.timeZone,
      ...(bucket ? { bucket } : {}),
    },
  }
}
