/**
 * Funnels: build a funnel from the site's pages, event names and property keys (or open a saved
 * one), see each step as a bar with its conversion, drop-off and median time from the previous step,
 * optionally broken down by a filter parameter, and list the sessions behind any step or drop-off,
 * overall or of one breakdown value. Admins save, rename, update (the open saved funnel gets the
 * builder's steps) and delete funnels; saved funnels are listed to members only (not in a shared
 * view). The steps, the sessions listed and the breakdown live in the URL (`?steps=&show=&by=`)
 * beside the report view.
 */
import type { FunnelStep, FunnelStepResult } from '@pathlight/protocol'
import { useState } from 'react'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { FunnelBuilder } from '../components/reports/funnel-builder'
import { FunnelChart } from '../components/reports/funnel-chart'
import { ImportedDaysNote } from '../components/reports/imported-days-note'
import { Pager } from '../components/reports/pager'
import { usePropertyKeyLoader } from '../components/reports/property-key-list'
import { ReportToolbar } from '../components/reports/report-toolbar'
import { SavedFunnels } from '../components/reports/saved-funnels'
import { SessionTable } from '../components/reports/session-table'
import { decodeSteps, encodeSteps, parseShow, showOf } from '../lib/funnel-steps'
import { formatCount, formatPercent } from '../lib/report-format'
import { withFilter, withView } from '../lib/report-view'
import { useAction } from '../lib/use-action'
import { useReport } from '../lib/use-report'
import { Link } from '../router/link'
import { navigate } from '../router/navigation'
import { type RouteOf, routePath } from '../router/routes'
import type { ReportContext } from './report-context'

const PAGE_SIZE = 25
/** Parameters a funnel may be broken down by, with their labels. */
const BREAKDOWNS = [
  ['browser', 'Browser'],
  ['operating_system', 'Operating system'],
  ['device_type', 'Device'],
  ['country', 'Country'],
  ['channel', 'Channel'],
  ['referrer', 'Referrer'],
  ['entry_page', 'Entry page'],
  ['utm_source', 'UTM source'],
  ['utm_campaign', 'UTM campaign'],
] as const
type BreakdownParameter = (typeof BREAKDOWNS)[number][0]
const breakdownLabel = (parameter: BreakdownParameter) => BREAKDOWNS.find(([p]) => p === parameter)?.[1]

/** The funnels page of the site in `ctx`. */
export function FunnelsPage({ ctx, route }: { ctx: ReportContext; route: RouteOf<'funnels'> }) {
  const steps = decodeSteps(route.steps)
  const show = parseShow(route.show)
  const by = BREAKDOWNS.find(([p]) => p === route.by)?.[0]
  const siteId = String(ctx.siteId)
  // Saved funnels are for members; a shared view neither lists nor changes them.
  const saved = useReport(`saved-funnels:${ctx.shared}`, async () =>
    ctx.shared ? [] : ctx.reports.funnels(),
  )
  const update = useAction()
  // The saved funnel last opened or saved here: "Update funnel" writes over it.
  const [openId, setOpenId] = useState<number>()
  const open = saved.data?.find((f) => f.funnelId === openId)
  const go = (next: { steps?: FunnelStep[]; show?: string; by?: string }) =>
    navigate(
      ctx.link({
        name: 'funnels',
        siteId,
        ...(next.steps ? { steps: encodeSteps(next.steps) } : {}),
        ...(next.show ? { show: next.show } : {}),
        ...(next.by ? { by: next.by } : {}),
      }),
    )
  const pages = useReport(`funnel-pages:${ctx.queryKey}`, () =>
    ctx.reports.breakdown('pages', ctx.query, { limit: 200 }, ['pageviews']),
  )
  const eventNames = useReport(`funnel-events:${ctx.queryKey}`, () =>
    ctx.reports.eventNames(ctx.query, { limit: 200 }, ['events']),
  )
  const eventNameList = eventNames.data?.data.map((row) => row.name) ?? []
  const propertyKeys = usePropertyKeyLoader(ctx, eventNameList)
  const stepsKey = route.steps ?? ''
  const report = useReport(`funnel:${stepsKey}:${by ?? ''}:${ctx.queryKey}`, async () =>
    steps ? (await ctx.reports.funnel(ctx.query, steps, by)).data : undefined,
  )
  const hrefOf = (step: number, outcome: 'reached' | 'dropped', value?: string) =>
    ctx.link({
      name: 'funnels',
      siteId,
      ...(steps ? { steps: encodeSteps(steps) } : {}),
      show: showOf(step, outcome, value),
      ...(by ? { by } : {}),
    })
  const updateSteps = async (next: FunnelStep[]) => {
    if (!open) return
    if (await update.run(() => ctx.reports.updateFunnel(open.funnelId, { steps: next }))) {
      saved.reload()
      go({ steps: next, by })
    }
  }
  return (
    <div className="stack">
      <ReportToolbar ctx={ctx} />
      <ImportedDaysNote ctx={ctx} />
      {!ctx.shared && (
        <SavedFunnels
          ctx={ctx}
          saved={saved}
          // One way to save at a time: with a saved funnel open, the builder's "Update funnel" writes
          // over it, so "Save funnel" (a new one) is offered only while none is open.
          steps={open ? undefined : steps}
          onOpen={(funnel) => {
            setOpenId(funnel.funnelId)
            update.clear()
            go({ steps: funnel.steps, by })
          }}
          onSaved={(funnel) => setOpenId(funnel.funnelId)}
        />
      )}
      <FunnelBuilder
        key={stepsKey}
        steps={steps}
        pages={pages.data?.data.map((row) => row.value) ?? []}
        eventNames={eventNameList}
        propertyKeys={propertyKeys}
        onApply={(next) => {
          update.clear()
          go({ steps: next, by })
        }}
        update={
          open && ctx.canAdmin
            ? { name: open.name, busy: update.busy, error: update.error, run: updateSteps }
            : undefined
        }
      />
      <section className="card" aria-labelledby="funnel-title" aria-busy={report.loading}>
        <div className="card-head toolbar-row">
          <h2 id="funnel-title">Funnel</h2>
          {steps && (
            <label className="inline-field">
              <span>Break down by</span>
              <select
                value={by ?? ''}
                onChange={(e) =>
                  // Sessions of one value of the old breakdown do not carry over to another.
                  go({
                    steps,
                    by: e.target.value || undefined,
                    show: show?.value === undefined ? route.show : undefined,
                  })
                }
              >
                <option value="">Nothing</option>
                {BREAKDOWNS.map(([parameter, label]) => (
                  <option key={parameter} value={parameter}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
        <p className="muted">
          A session counts at a step when it matched every step before it in order, each at or after the
          previous one. Choose a number to see the sessions behind it, overall or for one value of the
          breakdown.
        </p>
        {!steps && <p className="notice">Choose the steps above and show the funnel.</p>}
        <FormError error={report.error} />
        {steps && !report.data && report.loading && <Loading />}
        {report.data && report.data.steps[0]?.sessions === 0 && (
          <p className="notice" data-testid="funnel-empty">
            No session reached the first step in this period.
          </p>
        )}
        {report.data && steps && (
          <FunnelChart steps={report.data.steps} hrefOf={(step, outcome) => hrefOf(step, outcome)} />
        )}
        {report.data?.breakdown && by && (
          <BreakdownTable ctx={ctx} parameter={by} report={report.data.breakdown.values} hrefOf={hrefOf} />
        )}
      </section>
      {steps && show && show.step <= steps.length && (
        <FunnelSessions
          ctx={ctx}
          route={route}
          steps={steps}
          step={show.step}
          outcome={show.outcome}
          value={by && show.value !== undefined ? { parameter: by, value: show.value } : undefined}
        />
      )}
    </div>
  )
}

/**
 * Per breakdown value, the sessions at each step and the drop-off before it, each a link to the sessions
 * behind it (of that value); a value applies it as a filter.
 */
function BreakdownTable({
  ctx,
  parameter,
  report,
  hrefOf,
}: {
  ctx: ReportContext
  parameter: BreakdownParameter
  report: { value: string; steps: FunnelStepResult[] }[]
  hrefOf(step: number, outcome: 'reached' | 'dropped', value: string): string
}) {
  if (report.length === 0) return null
  const count = report[0]?.steps.length ?? 0
  return (
    <div className="table-wrap">
      <table className="report-table" data-testid="funnel-breakdown">
        <caption className="visually-hidden">Sessions per step and value, top 10 values</caption>
        <thead>
          <tr>
            <th scope="col">{breakdownLabel(parameter)}</th>
            {Array.from({ length: count }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: step columns
              <th key={i} scope="col" className="num">
                Step {i + 1}
              </th>
            ))}
            <th scope="col" className="num">
              Conversion
            </th>
          </tr>
        </thead>
        <tbody>
          {report.map((row) => (
            <tr key={row.value}>
              <td>
                <button
                  type="button"
                  className="link-button"
                  title={`Filter: ${parameter} is ${row.value || '(none)'}`}
                  onClick={() =>
                    ctx.setView(withFilter(ctx.view, { parameter, type: 'equals', value: [row.value] }))
                  }
                >
                  {row.value || '(none)'}
                </button>
              </td>
              {row.steps.map((step) => (
                <td key={step.step} className="num">
                  <Link
                    to={hrefOf(step.step, 'reached', row.value)}
                    title={`Sessions of ${row.value || '(none)'} that reached step ${step.step}`}
                  >
                    {formatCount(step.sessions)}
                  </Link>
                  {step.step > 1 && step.dropoff > 0 && (
                    <>
                      {' '}
                      <Link
                        to={hrefOf(step.step - 1, 'dropped', row.value)}
                        className="funnel-dropoff muted small"
                        title={`Sessions of ${row.value || '(none)'} that reached step ${step.step - 1} but not step ${step.step}`}
                      >
                        {formatCount(step.dropoff)} dropped
                      </Link>
                    </>
                  )}
                </td>
              ))}
              <td className="num">{formatPercent(row.steps.at(-1)?.conversionFromStart ?? 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** The sessions behind one figure of the funnel, newest first, paginated. */
function FunnelSessions({
  ctx,
  route,
  steps,
  step,
  outcome,
  value,
}: {
  ctx: ReportContext
  route: RouteOf<'funnels'>
  steps: FunnelStep[]
  step: number
  outcome: 'reached' | 'dropped'
  /** Only the sessions with this value of a breakdown parameter. */
  value?: { parameter: BreakdownParameter; value: string }
}) {
  const page = ctx.view.page ?? 1
  const breakdown = value ? { breakdown: value.parameter, breakdown_value: value.value } : {}
  const sessions = useReport(
    `funnel-sessions:${route.steps}:${step}:${outcome}:${JSON.stringify(breakdown)}:${page}:${ctx.queryKey}`,
    () =>
      ctx.reports.funnelSessions(ctx.query, steps, { step, outcome, ...breakdown, page, limit: PAGE_SIZE }),
  )
  const path = routePath(route)
  const reached =
    outcome === 'dropped' ? `reached step ${step} but not step ${step + 1}` : `reached step ${step}`
  const title = value
    ? `Sessions with ${breakdownLabel(value.parameter)} ${value.value || '(none)'} that ${reached}`
    : `Sessions that ${reached}`
  return (
    <section className="card" aria-labelledby="funnel-sessions-title" aria-busy={sessions.loading}>
      <h2 id="funnel-sessions-title">{title}</h2>
      <FormError error={sessions.error} />
      {!sessions.data && sessions.loading && <Loading />}
      {sessions.data?.data.length === 0 && <p className="muted">No sessions.</p>}
      {sessions.data && sessions.data.data.length > 0 && (
        <SessionTable ctx={ctx} sessions={sessions.data.data} />
      )}
      {sessions.data && (
        <Pager
          page={page}
          totalPages={sessions.data.meta.totalPages}
          hrefOf={(p) => withView(path, { ...ctx.view, page: p })}
        />
      )}
    </section>
  )
}
