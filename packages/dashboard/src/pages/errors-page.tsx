/**
 * JavaScript errors of the range by message: occurrences, affected sessions, share of all errors and
 * a sparkline of occurrences per bucket; each opens its detail.
 */
import type { ErrorName } from '@pathlight/protocol'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { Pager } from '../components/reports/pager'
import { ReportToolbar } from '../components/reports/report-toolbar'
import { Sparkline } from '../components/reports/sparkline'
import { formatCount, formatDecimal } from '../lib/report-format'
import { bucketOf, withView } from '../lib/report-view'
import { useReport } from '../lib/use-report'
import { Link } from '../router/link'
import { routePath } from '../router/routes'
import type { ReportContext } from './report-context'

const PAGE_SIZE = 20

/** The errors of the site in `ctx`. */
export function ErrorsPage({ ctx }: { ctx: ReportContext }) {
  const page = ctx.view.page ?? 1
  const errors = useReport(`errors:${page}:${ctx.queryKey}`, () =>
    ctx.reports.errorNames(ctx.query, { page, limit: PAGE_SIZE }),
  )
  const siteId = String(ctx.siteId)
  const list = errors.data ?? []
  // The route gives no total: a full page suggests another one.
  const hasMore = list.length === PAGE_SIZE
  return (
    <div className="stack">
      <ReportToolbar ctx={ctx} />
      <section className="card" aria-labelledby="errors-title" aria-busy={errors.loading}>
        <h2 id="errors-title">JavaScript errors</h2>
        <FormError error={errors.error} />
        {!errors.data && errors.loading && <Loading />}
        {errors.data && list.length === 0 && (
          <p className="muted">
            No errors in this period.
            {!ctx.shared && ' Error tracking is switched on in the site’s settings (JavaScript errors).'}
          </p>
        )}
        {list.length > 0 && (
          <div className="table-wrap">
            <table className="report-table">
              <thead>
                <tr>
                  <th scope="col">Error</th>
                  <th scope="col" className="num">
                    Occurrences
                  </th>
                  <th scope="col" className="num">
                    Sessions
                  </th>
                  <th scope="col" className="num">
                    Share
                  </th>
                  <th scope="col">Trend</th>
                </tr>
              </thead>
              <tbody>
                {list.map((error) => (
                  <tr key={error.value}>
                    <td className="error-cell">
                      <Link to={ctx.link({ name: 'errorDetail', siteId, message: error.value })}>
                        {error.value || '(no message)'}
                      </Link>
                      {error.errorName && <span className="badge badge-error">{error.errorName}</span>}
                    </td>
                    <td className="num">{formatCount(error.count)}</td>
                    <td className="num">{formatCount(error.sessionCount)}</td>
                    <td className="num">{formatDecimal(error.percentage)}%</td>
                    <td>
                      <ErrorTrend ctx={ctx} error={error} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager
          page={page}
          totalPages={hasMore ? page + 1 : page}
          hrefOf={(p) => withView(routePath({ name: 'errors', siteId }), { ...ctx.view, page: p })}
        />
      </section>
    </div>
  )
}

/** The sparkline of one message's occurrences per bucket. */
function ErrorTrend({ ctx, error }: { ctx: ReportContext; error: ErrorName }) {
  const bucket = bucketOf(ctx.view, ctx.days)
  const buckets = useReport(`error-trend:${error.value}:${bucket}:${ctx.queryKey}`, () =>
    ctx.reports.errorBuckets(error.value, ctx.query, bucket),
  )
  if (!buckets.data) return null
  return <Sparkline values={buckets.data.map((b) => b.error_count)} label={`Occurrences per ${bucket}`} />
}
