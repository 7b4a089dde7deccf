/**
 * A site's goals over the range: conversions (sessions that completed each) and conversion rate
 * (of the sessions in the range, after filters); each opens the sessions that converted. Admins and
 * owners create, edit and delete goals here; the forms suggest the range's event names and property keys.
 */
import type { Goal, GoalInput } from '@pathlight/protocol'
import { useState } from 'react'
import { ConfirmButton } from '../components/confirm-button'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { emptyGoal, GoalForm, type GoalSuggestions } from '../components/reports/goal-form'
import { usePropertyKeyLoader } from '../components/reports/property-key-list'
import { ReportToolbar } from '../components/reports/report-toolbar'
import { describeGoal } from '../lib/goal-text'
import { formatCount, formatPercent } from '../lib/report-format'
import { useAction } from '../lib/use-action'
import { useReport } from '../lib/use-report'
import { Link } from '../router/link'
import type { ReportContext } from './report-context'

const inputOf = (goal: Goal): GoalInput =>
  goal.goalType === 'path'
    ? { name: goal.name, goalType: 'path', config: goal.config }
    : { name: goal.name, goalType: 'event', config: goal.config }

/** The goals of the site in `ctx`. */
export function GoalsPage({ ctx }: { ctx: ReportContext }) {
  const goals = useReport(`goals:${ctx.queryKey}`, () => ctx.reports.goals(ctx.query))
  const [editing, setEditing] = useState<number>()
  const [formKey, setFormKey] = useState(0)
  const create = useAction()
  const edit = useAction()
  const remove = useAction()
  const list = goals.data?.data
  const suggestions = useGoalSuggestions(ctx)
  const siteId = String(ctx.siteId)
  return (
    <div className="stack">
      <ReportToolbar ctx={ctx} />
      <section className="card" aria-labelledby="goals-title" aria-busy={goals.loading}>
        <h2 id="goals-title">Goals</h2>
        <p className="muted">
          A conversion is a session of the period that completed the goal; the rate is conversions divided by
          the sessions of the period (after filters).
        </p>
        <FormError error={goals.error} />
        <FormError error={remove.error} />
        {!list && goals.loading && <Loading />}
        {list?.length === 0 && <p className="muted">No goals yet.</p>}
        {list && list.length > 0 && (
          <div className="table-wrap">
            <table className="report-table">
              <thead>
                <tr>
                  <th scope="col">Goal</th>
                  <th scope="col" className="num">
                    Conversions
                  </th>
                  <th scope="col" className="num">
                    Conversion rate
                  </th>
                  {ctx.canAdmin && (
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {list.map((goal) =>
                  editing === goal.goalId ? (
                    <tr key={goal.goalId}>
                      <td colSpan={4}>
                        <GoalForm
                          initial={inputOf(goal)}
                          suggestions={suggestions}
                          submitLabel="Save goal"
                          busy={edit.busy}
                          error={edit.error}
                          onCancel={() => {
                            edit.clear()
                            setEditing(undefined)
                          }}
                          onSubmit={(input) =>
                            void edit.run(async () => {
                              await ctx.reports.updateGoal(goal.goalId, input)
                              setEditing(undefined)
                              goals.reload()
                            })
                          }
                        />
                      </td>
                    </tr>
                  ) : (
                    <tr key={goal.goalId} data-goal={goal.name}>
                      <td>
                        <Link to={ctx.link({ name: 'goal', siteId, goalId: String(goal.goalId) })}>
                          <strong>{goal.name}</strong>
                        </Link>
                        <div className="muted small">{describeGoal(goal)}</div>
                      </td>
                      <td className="num">{formatCount(goal.total_conversions)}</td>
                      <td className="num">
                        <span className="rate">
                          <span className="rate-bar" style={{ width: `${goal.conversion_rate * 100}%` }} />
                        </span>
                        {formatPercent(goal.conversion_rate)}
                      </td>
                      {ctx.canAdmin && (
                        <td className="actions">
                          <button
                            type="button"
                            className="button button-secondary button-small"
                            onClick={() => {
                              edit.clear()
                              setEditing(goal.goalId)
                            }}
                          >
                            Edit
                          </button>{' '}
                          <ConfirmButton
                            label="Delete"
                            question="Delete this goal?"
                            onConfirm={() =>
                              remove.run(async () => {
                                await ctx.reports.deleteGoal(goal.goalId)
                                goals.reload()
                              })
                            }
                          />
                        </td>
                      )}
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {ctx.canAdmin ? (
        <section className="card" aria-labelledby="new-goal-title">
          <h2 id="new-goal-title">Add a goal</h2>
          <GoalForm
            key={formKey}
            initial={emptyGoal}
            suggestions={suggestions}
            submitLabel="Create goal"
            busy={create.busy}
            error={create.error}
            onSubmit={(input) =>
              void create.run(async () => {
                await ctx.reports.createGoal(input)
                setFormKey((k) => k + 1)
                goals.reload()
              })
            }
          />
        </section>
      ) : (
        !ctx.shared && <p className="muted">Goals are created and changed by the admins and owners.</p>
      )}
    </div>
  )
}

/**
 * The event names and property keys of the range the goal forms suggest; nothing is loaded for a
 * reader who may not change goals (the forms are not shown).
 */
function useGoalSuggestions(ctx: ReportContext): GoalSuggestions {
  const names = useReport(`goal-events:${ctx.canAdmin}:${ctx.queryKey}`, async () =>
    ctx.canAdmin ? (await ctx.reports.eventNames(ctx.query, { limit: 200 }, ['events'])).data : [],
  )
  const eventNames = names.data?.map((row) => row.name) ?? []
  return { eventNames, propertyKeys: usePropertyKeyLoader(ctx, eventNames) }
}
