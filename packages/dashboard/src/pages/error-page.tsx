/**
 * One JavaScript error message: its occurrences per bucket, and each occurrence (newest first) with
 * where it happened and its stack trace, made readable.
 */
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { GeoCredit } from '../components/reports/geo-credit'
import { Pager } from '../components/reports/pager'
import { ReportToolbar } from '../components/reports/report-toolbar'
import { StackTrace } from '../components/reports/stack-trace'
import { TimeSeriesChart } from '../components/reports/time-series-chart'
import { formatDateTime } from '../lib/format'
import { formatCount } from '../lib/report-format'
import { countryName } from '../lib/report-labels'
import { bucketOf, withView, zoneOf } from '../lib/report-view'
import { useReport } from '../lib/use-report'
import { Link } from '../router/link'
import { routePath } from '../router/routes'
import type { ReportContext } from './report-context'

const PAGE_SIZE = 20

/** The error `message` of the site in `ctx`. */
export function ErrorPage({ ctx, message }: { ctx: ReportContext; message: string }) {
  const page = ctx.view.page ?? 1
  const bucket = bucketOf(ctx.view, ctx.days)
  const buckets = useReport(`error-buckets:${message}:${bucket}:${ctx.queryKey}`, () =>
    ctx.reports.errorBuckets(message, ctx.query, bucket),
  )
  const occurrences = useReport(`error-events:${message}:${page}:${ctx.queryKey}`, () =>
    ctx.reports.errorEvents(message, ctx.query, { page, limit: PAGE_SIZE }),
  )
  const siteId = String(ctx.siteId)
  const total = buckets.data?.reduce((sum, b) => sum + b.error_count, 0)
  const list = occurrences.data ?? []
  return (
    <div className="stack">
      <ReportToolbar ctx={ctx} />
      <p>
        <Link to={ctx.link({ name: 'errors', siteId })}>← All errors</Link>
      </p>
      <section className="card" aria-labelledby="error-title" aria-busy={buckets.loading}>
        <h2 id="error-title" className="error-message">
          {message || '(no message)'}
        </h2>
        <FormError error={buckets.error} />
        {total !== undefined && (
          <p className="muted">
            {formatCount(total)} {total === 1 ? 'occurrence' : 'occurrences'} in the period
          </p>
        )}
        {buckets.data && (
          <TimeSeriesChart
            points={buckets.data.map((b) => ({ time: b.time, value: b.error_count }))}
            bucket={bucket}
            timeZone={zoneOf(ctx.view)}
            days={ctx.days}
            label="Occurrences"
            nowMs={Date.now()}
          />
        )}
      </section>
      <section className="card" aria-labelledby="occurrences-title" aria-busy={occurrences.loading}>
        <h2 id="occurrences-title">Occurrences</h2>
        <FormError error={occurrences.error} />
        {!occurrences.data && occurrences.loading && <Loading />}
        {occurrences.data && list.length === 0 && <p className="muted">None in this period.</p>}
        <ol className="occurrences">
          {list.map((o, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: two occurrences may share time and session
            <li key={`${o.timestamp}:${o.session_id}:${i}`} className="occurrence">
              <p className="occurrence-head">
                <Link to={ctx.link({ name: 'session', siteId, sessionId: o.session_id })}>
                  {formatDateTime(o.timestamp)}
                </Link>{' '}
                on <code>{o.pathname}</code> ·{' '}
                {[`${o.browser} ${o.browser_version}`.trim(), o.operating_system, o.device_type]
                  .filter(Boolean)
                  .join(' · ')}{' '}
                · {countryName(o.country)}
              </p>
              {o.fileName && (
                <p className="muted small">
                  {o.fileName}
                  {o.lineNumber > 0 && `:${o.lineNumber}`}
                  {o.columnNumber > 0 && `:${o.columnNumber}`}
                </p>
              )}
              <StackTrace stack={o.stack} />
            </li>
          ))}
        </ol>
        <Pager
          page={page}
          totalPages={list.length === PAGE_SIZE ? page + 1 : page}
          hrefOf={(p) =>
            withView(routePath({ name: 'errorDetail', siteId, message }), { ...ctx.view, page: p })
          }
        />
        <GeoCredit />
      </section>
    </div>
  )
}
