/**
 * The engagement card of the overview: the top pages by pageviews with how far visitors read them
 * (median scroll depth, the share reaching 75 %) and how long they were engaged per pageview, from the
 * tracker's engagement events (`GET .../page-stats`), under the site-wide engaged time per visit
 * (`GET .../engagement`). Pages without engagement data show a dash.
 * Each row's Heatmap action opens the site's page with the heatmap of the range drawn on it (a signed
 * link valid 10 minutes, `GET .../heatmap-link`); the tab is opened at the click so that no popup
 * blocker stops it, and sent to the link once it is made.
 */
import { reportLabels } from '@pathlight/protocol/enums'
import { useId, useState } from 'react'
import { type ApiError, asApiError } from '../../api/api-error'
import { formatPercent, formatSeconds } from '../../lib/report-format'
import { useReportPart } from '../../lib/use-report-part'
import type { ReportContext } from '../../pages/report-context'
import { FormError } from '../form-error'
import { PathText } from './path-text'

const TOP = 8

/** The card over `ctx`'s range and filters. */
export function PageEngagementCard({ ctx }: { ctx: ReportContext }) {
  const id = useId()
  const report = useReportPart(ctx, { name: 'page-stats', params: { limit: TOP } })
  const summary = useReportPart(ctx, { name: 'engagement' })
  const rows = (report.data?.data ?? []).filter((row) => row.engaged_time !== null)
  const perVisit = summary.data?.data.engaged_time_per_visit ?? null
  const dash = '–'
  const [linkError, setLinkError] = useState<ApiError | undefined>(undefined)
  const openHeatmap = (pathname: string) => {
    const tab = window.open('', '_blank')
    setLinkError(undefined)
    ctx.reports.heatmapLink(ctx.query, pathname).then(
      ({ url }) => {
        if (!tab) return window.location.assign(url)
        tab.opener = null
        tab.location.href = url
      },
      (error: unknown) => {
        tab?.close()
        setLinkError(asApiError(error))
      },
    )
  }
  return (
    <section className="card report-card" aria-labelledby={id} aria-busy={report.loading}>
      <div className="card-head">
        <h2 id={id}>Engagement</h2>
      </div>
      <FormError error={report.error ?? summary.error} />
      <FormError error={linkError} />
      {perVisit === null ? null : (
        <p className="engagement-per-visit" data-engaged-visits={summary.data?.data.engaged_visits}>
          <strong>{formatSeconds(perVisit)}</strong> engaged time per visit
        </p>
      )}
      {!report.loading && rows.length === 0 ? (
        <p className="muted">No engagement data for this period.</p>
      ) : (
        <table className="report-table page-engagement">
          <caption className="visually-hidden">{`${reportLabels['page-stats']}: engagement`}</caption>
          <thead>
            <tr>
              <th scope="col">Page</th>
              <th scope="col">Engaged time</th>
              <th scope="col">Scroll depth</th>
              <th scope="col">Read 75 %</th>
              <th scope="col">
                <span className="visually-hidden">Heatmap</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.pathname} data-pathname={row.pathname}>
                <td>
                  <PathText path={row.pathname} />
                </td>
                <td>{row.engaged_time === null ? dash : formatSeconds(row.engaged_time)}</td>
                <td>{row.scroll_depth === null ? dash : `${Math.round(row.scroll_depth)} %`}</td>
                <td>{row.scroll_75 === null ? dash : formatPercent(row.scroll_75)}</td>
                <td>
                  <button
                    type="button"
                    className="link-button"
                    aria-label={`Heatmap of ${row.pathname}`}
                    onClick={() => openHeatmap(row.pathname)}
                  >
                    Heatmap
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
