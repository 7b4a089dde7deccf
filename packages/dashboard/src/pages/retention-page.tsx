/**
 * Retention cohorts of the range: visitors grouped by the day, week or month of their first visit in
 * the range (the URL's `cohort`), and for each cohort the share and number of its visitors active in
 * each later period, as a triangle, from the first cohort with visitors (the periods before the site's
 * first visitor would be rows of zeros). A real table: every cell states its percentage and count, and
 * the background's depth repeats the percentage (colour never carries the figure alone).
 */
import type { RetentionCohort, RetentionPeriod } from '@pathlight/protocol'
import type { CSSProperties } from 'react'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { ImportedDaysNote } from '../components/reports/imported-days-note'
import { ReportToolbar } from '../components/reports/report-toolbar'
import { Segmented } from '../components/reports/segmented'
import { formatDay } from '../lib/dates'
import { formatCount, formatPercent } from '../lib/report-format'
import {
  averageShares,
  defaultRetentionPeriod,
  fromFirstVisitors,
  retentionPeriodLabels,
  retentionPeriodsFor,
  shareOf,
} from '../lib/retention-table'
import { useReport } from '../lib/use-report'
import { navigate } from '../router/navigation'
import type { RouteOf } from '../router/routes'
import type { ReportContext } from './report-context'

/** The retention report of the site in `ctx`. */
export function RetentionPage({ ctx, route }: { ctx: ReportContext; route: RouteOf<'retention'> }) {
  const offered = retentionPeriodsFor(ctx.days)
  const period =
    route.cohort && offered.includes(route.cohort) ? route.cohort : defaultRetentionPeriod(ctx.days)
  const report = useReport(`retention:${period}:${ctx.queryKey}`, () =>
    ctx.reports.retention(ctx.query, period),
  )
  const cohorts = report.data && fromFirstVisitors(report.data.data)
  const empty = cohorts?.length === 0
  const choose = (cohort: string) =>
    navigate(ctx.link({ name: 'retention', siteId: String(ctx.siteId), cohort: cohort as RetentionPeriod }), {
      replace: true,
    })
  return (
    <div className="stack">
      <ReportToolbar ctx={ctx} />
      <ImportedDaysNote ctx={ctx} />
      <section className="card" aria-labelledby="retention-title" aria-busy={report.loading}>
        <div className="card-head">
          <h2 id="retention-title">Retention</h2>
          <div className="card-tools">
            <Segmented
              label="Cohort period"
              options={offered.map((p) => ({ value: p, label: retentionPeriodLabels[p].many }))}
              value={period}
              onChange={choose}
            />
          </div>
        </div>
        <p className="muted">
          Visitors grouped by the {period} of their first pageview, custom event or outbound click in the
          range; a cell shows how many of them were active again that many {period}s later, as a share of the
          cohort and a count. Filters choose the events that count.
        </p>
        <FormError error={report.error} />
        {!report.data && report.loading && <Loading />}
        {empty && <p className="notice">No visitors in this period.</p>}
        {cohorts && !empty && (
          <RetentionTable cohorts={cohorts} period={report.data?.meta.period ?? period} />
        )}
      </section>
    </div>
  )
}

/** The cohort triangle: one row per cohort, one column per period after the cohort's. */
function RetentionTable({ cohorts, period }: { cohorts: RetentionCohort[]; period: RetentionPeriod }) {
  /** Period offsets after the cohort's: 0 (the cohort's own) to the first cohort's last. */
  const offsets = Array.from({ length: cohorts[0]?.retained.length ?? 0 }, (_, k) => k)
  const label = retentionPeriodLabels[period].one
  const average = averageShares(cohorts)
  const total = cohorts.reduce((sum, c) => sum + c.visitors, 0)
  return (
    <div className="table-wrap">
      <table className="report-table retention-table">
        <caption className="visually-hidden">
          Retention by {period}: for each cohort, the share and number of its visitors active in each later{' '}
          {period}
        </caption>
        <thead>
          <tr>
            <th scope="col">Cohort</th>
            <th scope="col" className="num">
              Visitors
            </th>
            {offsets.map((k) => (
              <th key={k} scope="col" className="num">
                {label} {k}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr className="retention-average">
            <th scope="row">All cohorts</th>
            <td className="num">{formatCount(total)}</td>
            {offsets.map((k) => (
              <RetentionCell key={k} share={average[k] ?? null} />
            ))}
          </tr>
          {cohorts.map((cohort) => (
            <tr key={cohort.cohort}>
              <th scope="row">{cohortLabel(cohort.cohort, period)}</th>
              <td className="num">{formatCount(cohort.visitors)}</td>
              {offsets.map((k) => {
                const count = cohort.retained[k]
                if (count === undefined) return <td key={k} className="retention-none" />
                return <RetentionCell key={k} share={shareOf(count, cohort.visitors)} count={count} />
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** A cell: the share (a dash for an empty cohort) over the count, on a background as deep as the share. */
function RetentionCell({ share, count }: { share: number | null; count?: number }) {
  const style = { '--heat': String(share ?? 0) } as CSSProperties
  return (
    <td className="num retention-cell" style={style}>
      <span className="retention-share">{share === null ? '–' : formatPercent(share)}</span>
      {count !== undefined && (
        <span className="retention-count">
          {formatCount(count)}
          <span className="visually-hidden">{count === 1 ? ' visitor' : ' visitors'}</span>
        </span>
      )}
    </td>
  )
}

/** A cohort's name: its day ('Mar 16, 2026'; a week by its Monday) or its month ('March 2026'). */
function cohortLabel(start: string, period: RetentionPeriod): string {
  if (period === 'month') return formatDay(start, { month: 'long', year: 'numeric' })
  return period === 'week' ? `Week of ${formatDay(start)}` : formatDay(start)
}
