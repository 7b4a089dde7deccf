/**
 * What every report page gets: the site, its reports API (with the private link key of a shared
 * view), the view of the URL and its resolved range, and whether the reader may change goals.
 */
import { useMemo } from 'react'
import { createReportsApi, type ReportsApi } from '../api/reports-api'
import { daysOf, queryKeyOf, type ReportQuery, reportQueryOf } from '../lib/report-query'
import { type ReportView, withView } from '../lib/report-view'
import { useReportView } from '../lib/use-report-view'
import { type Route, routePath } from '../router/routes'

export interface ReportContext {
  siteId: number
  reports: ReportsApi
  view: ReportView
  /** What the page's reports are asked: the site, the view's range, zone, filters and comparison. */
  query: ReportQuery
  /** A stable key of `query`, for resources that depend on it. */
  queryKey: string
  /** Days in the range. */
  days: number
  setView(next: ReportView, options?: { replace?: boolean }): void
  /**
   * The path of `route` carrying the view (range, zone, filters, key); `page` and the overview's open
   * event properties (`event`, `property`) are dropped.
   */
  link(route: Route, view?: ReportView): string
  /** Admin or owner of the site's organization: may create, edit and delete goals. */
  canAdmin: boolean
  /** A shared view (private link or public site): read-only, no settings. */
  shared: boolean
}

/** The report context of `siteId` for the current URL. */
export function useReportContext(
  siteId: number,
  options: { privateKey?: string; canAdmin: boolean; shared: boolean },
): ReportContext {
  const { view, setView } = useReportView()
  const { privateKey, canAdmin, shared } = options
  const reports = useMemo(() => createReportsApi(siteId, privateKey), [siteId, privateKey])
  // The range is resolved once per view (a preset's "today" moves only when the view changes).
  const viewKey = JSON.stringify(view)
  // biome-ignore lint/correctness/useExhaustiveDependencies: viewKey stands for view
  const query = useMemo(() => reportQueryOf(siteId, view, Date.now()), [siteId, viewKey])
  return useMemo(
    () => ({
      siteId,
      reports,
      view,
      query,
      queryKey: queryKeyOf(query),
      days: daysOf(query),
      setView,
      link: (route: Route, next: ReportView = view) =>
        withView(routePath(route), { ...next, page: undefined, event: undefined, property: undefined }),
      canAdmin,
      shared,
    }),
    [siteId, reports, view, query, setView, canAdmin, shared],
  )
}
