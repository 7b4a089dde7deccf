/**
 * Core Web Vitals of the range: p75 of each metric with its band (Google's thresholds, from the
 * server), the share of measurements per band, and the same per page and per device type.
 */
import type { WebVitalName, WebVitalRating, WebVitalsRow, WebVitalThresholds } from '@pathlight/protocol'
import { webVitalNames } from '@pathlight/protocol/enums'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { PathText } from '../components/reports/path-text'
import { ReportToolbar } from '../components/reports/report-toolbar'
import { VitalCard } from '../components/reports/vital-card'
import { formatCount, formatVital } from '../lib/report-format'
import { filterText, valueLabel } from '../lib/report-labels'
import { withFilter } from '../lib/report-view'
import { useReport } from '../lib/use-report'
import { ratingLabels, vitalLabels } from '../lib/vital-labels'
import type { ReportContext } from './report-context'

/** The web vitals of the site in `ctx`. */
export function WebVitalsPage({ ctx }: { ctx: ReportContext }) {
  const overall = useReport(`vitals:${ctx.queryKey}`, () => ctx.reports.webVitals(ctx.query))
  const thresholds = overall.data?.meta.thresholds
  const vitals = overall.data?.data
  const none = vitals && webVitalNames.every((n) => vitals[n].samples === 0)
  return (
    <div className="stack">
      <ReportToolbar ctx={ctx} />
      <section className="card" aria-labelledby="vitals-title" aria-busy={overall.loading}>
        <h2 id="vitals-title">Core Web Vitals</h2>
        <p className="muted">
          The 75th percentile (p75) of each metric over the measurements of the period, rated by Google’s
          thresholds; the bar shows how many measurements were good, needed improvement or were poor.
        </p>
        <FormError error={overall.error} />
        {!overall.data && overall.loading && <Loading />}
        {none && (
          <p className="notice">
            No measurements in this period.
            {!ctx.shared &&
              ' Web vitals are collected once switched on in the site’s settings (Core Web Vitals).'}
          </p>
        )}
        {vitals && thresholds && !none && (
          <ul className="vital-cards">
            {webVitalNames.map((name) => (
              <VitalCard key={name} name={name} stats={vitals[name]} threshold={thresholds[name]} />
            ))}
          </ul>
        )}
      </section>
      {thresholds && !none && (
        <>
          <VitalsTable ctx={ctx} by="pathname" title="By page" thresholds={thresholds} />
          <VitalsTable ctx={ctx} by="device_type" title="By device type" thresholds={thresholds} />
        </>
      )}
    </div>
  )
}

const ratingClass = (rating: WebVitalRating | null) => `vital-chip vital-${rating ?? 'none'}`

/** p75 of every metric per value of `by`; a row's value is a filter. */
function VitalsTable({
  ctx,
  by,
  title,
  thresholds,
}: {
  ctx: ReportContext
  by: 'pathname' | 'device_type'
  title: string
  thresholds: WebVitalThresholds
}) {
  const rows = useReport(`vitals-by:${by}:${ctx.queryKey}`, () =>
    ctx.reports.webVitalsBy(by, ctx.query, { limit: 50 }),
  )
  const id = `vitals-${by}`
  const list: WebVitalsRow[] = rows.data?.data ?? []
  return (
    <section className="card" aria-labelledby={id} aria-busy={rows.loading}>
      <h2 id={id}>{title}</h2>
      <FormError error={rows.error} />
      {list.length > 0 && (
        <div className="table-wrap">
          <table className="report-table vitals-table">
            <thead>
              <tr>
                <th scope="col">{by === 'pathname' ? 'Page' : 'Device type'}</th>
                <th scope="col" className="num">
                  Measurements
                </th>
                {webVitalNames.map((name: WebVitalName) => (
                  <th key={name} scope="col" className="num" title={vitalLabels[name].name}>
                    {vitalLabels[name].short} p75
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {list.map((row) => {
                const filter = { parameter: by, type: 'equals' as const, value: [row.value] }
                return (
                  <tr key={row.value}>
                    <td className="path-cell">
                      <button
                        type="button"
                        className="link-button"
                        title={`Filter: ${filterText(filter)}`}
                        onClick={() => ctx.setView(withFilter(ctx.view, filter))}
                      >
                        {by === 'pathname' && row.value ? (
                          <PathText path={row.value} title={`Filter: ${filterText(filter)}`} />
                        ) : (
                          valueLabel(by, row.value)
                        )}
                      </button>
                    </td>
                    <td className="num">{formatCount(row.events)}</td>
                    {webVitalNames.map((name) => (
                      <td key={name} className="num">
                        <span
                          className={ratingClass(row[name].rating)}
                          title={row[name].rating ? ratingLabels[row[name].rating] : 'No measurements'}
                        >
                          {formatVital(row[name].p75, thresholds[name].unit)}
                        </span>
                      </td>
                    ))}
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
      {rows.data && rows.data.meta.total > list.length && (
        <p className="muted small">
          The {list.length} with the most measurements of {rows.data.meta.total}.
        </p>
      )}
    </section>
  )
}
