/**
 * The sessions of the range (after filters), newest first, 50 a page; each opens its timeline. A toggle
 * kept in the URL (`replay=1`) narrows the list to the sessions with a session replay recording.
 */
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { ImportedDaysNote } from '../components/reports/imported-days-note'
import { Pager } from '../components/reports/pager'
import { ReportToolbar } from '../components/reports/report-toolbar'
import { SessionTable } from '../components/reports/session-table'
import { formatCount } from '../lib/report-format'
import { withView } from '../lib/report-view'
import { useReportPart } from '../lib/use-report-part'
import { Link } from '../router/link'
import { routePath } from '../router/routes'
import type { ReportContext } from './report-context'

const PAGE_SIZE = 50

/** The sessions of the site in `ctx`, page `view.page`. */
export function SessionsPage({ ctx }: { ctx: ReportContext }) {
  const page = ctx.view.page ?? 1
  const onlyReplayed = ctx.view.replay === true
  const sessions = useReportPart(ctx, {
    name: 'sessions',
    params: { page, limit: PAGE_SIZE, has_replay: onlyReplayed || undefined },
  })
  const siteId = String(ctx.siteId)
  const meta = sessions.data?.meta
  return (
    <div className="stack">
      <ReportToolbar ctx={ctx} />
      <ImportedDaysNote ctx={ctx} />
      <section className="card" aria-labelledby="sessions-title" aria-busy={sessions.loading}>
        <div className="card-head">
          <h2 id="sessions-title">Sessions{meta ? ` (${formatCount(meta.total)})` : ''}</h2>
          <div className="card-tools">
            <label className="inline-check">
              <input
                type="checkbox"
                checked={onlyReplayed}
                onChange={(event) =>
                  ctx.setView({ ...ctx.view, replay: event.target.checked || undefined, page: undefined })
                }
              />
              Only sessions with a replay
            </label>
            <Link to={ctx.link({ name: 'events', siteId })}>All events →</Link>
          </div>
        </div>
        <FormError error={sessions.error} />
        {!sessions.data && sessions.loading && <Loading />}
        {sessions.data?.data.length === 0 && (
          <p className="muted">
            {onlyReplayed ? 'No sessions with a replay in this period.' : 'No sessions in this period.'}
          </p>
        )}
        {sessions.data && sessions.data.data.length > 0 && (
          <SessionTable ctx={ctx} sessions={sessions.data.data} />
        )}
        {meta && (
          <Pager
            page={page}
            totalPages={meta.totalPages}
            hrefOf={(p) => withView(routePath({ name: 'sessions', siteId }), { ...ctx.view, page: p })}
          />
        )}
      </section>
    </div>
  )
}
