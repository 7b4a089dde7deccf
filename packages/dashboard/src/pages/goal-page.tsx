/** One goal over the range: its figures and the sessions that completed it, newest first. */
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { Pager } from '../components/reports/pager'
import { ReportToolbar } from '../components/reports/report-toolbar'
import { SessionTable } from '../components/reports/session-table'
import { describeGoal } from '../lib/goal-text'
import { formatCount, formatPercent } from '../lib/report-format'
import { withView } from '../lib/report-view'
import { useReport } from '../lib/use-report'
import { Link } from '../router/link'
import { routePath } from '../router/routes'
import type { ReportContext } from './report-context'

const PAGE_SIZE = 50

/** The goal `goalId` of the site in `ctx`. */
export function GoalPage({ ctx, goalId }: { ctx: ReportContext; goalId: number }) {
  const page = ctx.view.page ?? 1
  const goals = useReport(`goals:${ctx.queryKey}`, () => ctx.reports.goals(ctx.query))
  const sessions = useReport(`goal-sessions:${goalId}:${page}:${ctx.queryKey}`, () =>
    ctx.reports.goalSessions(goalId, ctx.query, { page, limit: PAGE_SIZE }),
  )
  const goal = goals.data?.data.find((g) => g.goalId === goalId)
  const siteId = String(ctx.siteId)
  const path = routePath({ name: 'goal', siteId, goalId: String(goalId) })
  return (
    <div className="stack">
      <ReportToolbar ctx={ctx} />
      <p>
        <Link to={ctx.link({ name: 'goals', siteId })}>← All goals</Link>
      </p>
      <FormError error={goals.error ?? sessions.error} />
      {goals.data && !goal && <p className="notice">This goal does not exist (any more).</p>}
      {goal && (
        <section className="card" aria-labelledby="goal-title">
          <h2 id="goal-title">{goal.name}</h2>
          <p className="muted">{describeGoal(goal)}</p>
          <dl className="figures">
            <div>
              <dt>Conversions</dt>
              <dd>{formatCount(goal.total_conversions)}</dd>
            </div>
            <div>
              <dt>Conversion rate</dt>
              <dd>{formatPercent(goal.conversion_rate)}</dd>
            </div>
            <div>
              <dt>Sessions in the period</dt>
              <dd>{formatCount(goal.total_sessions)}</dd>
            </div>
          </dl>
        </section>
      )}
      <section className="card" aria-labelledby="converted-title" aria-busy={sessions.loading}>
        <h2 id="converted-title">Sessions that converted</h2>
        {!sessions.data && sessions.loading && <Loading />}
        {sessions.data?.length === 0 && (
          <p className="muted">No session completed this goal in the period.</p>
        )}
        {sessions.data && sessions.data.length > 0 && <SessionTable ctx={ctx} sessions={sessions.data} />}
        {goal && (
          <Pager
            page={page}
            totalPages={Math.ceil(goal.total_conversions / PAGE_SIZE)}
            hrefOf={(p) => withView(path, { ...ctx.view, page: p })}
          />
        )}
      </section>
    </div>
  )
}
