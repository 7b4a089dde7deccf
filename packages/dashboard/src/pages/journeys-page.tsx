/**
 * User journeys: the most common page sequences of the period's sessions (repeats collapsed, cut to
 * `steps` pages from the start, from a start page, or up to an end page), as a Sankey chart (loaded on
 * demand; clicking a page makes it the start page) and as a table. Steps, start and end pages live in
 * the URL (`?steps=&start=&end=`) beside the report view.
 */
import { type FormEvent, lazy, Suspense, useState } from 'react'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { ImportedDaysNote } from '../components/reports/imported-days-note'
import { PathText } from '../components/reports/path-text'
import { ReportToolbar } from '../components/reports/report-toolbar'
import { formatCount, formatPercent } from '../lib/report-format'
import { useReport } from '../lib/use-report'
import { navigate } from '../router/navigation'
import type { RouteOf } from '../router/routes'
import type { ReportContext } from './report-context'

const JourneySankey = lazy(() => import('../components/reports/journey-sankey'))

const DEFAULT_STEPS = 4
const STEP_CHOICES = [2, 3, 4, 5, 6]
const LIMIT = 25

/** The journeys of the site in `ctx`, with the route's steps, start and end pages. */
export function JourneysPage({ ctx, route }: { ctx: ReportContext; route: RouteOf<'journeys'> }) {
  const steps = route.steps ?? DEFAULT_STEPS
  const { start, end } = route
  const journeys = useReport(`journeys:${steps}:${start ?? ''}:${end ?? ''}:${ctx.queryKey}`, () =>
    ctx.reports.journeys(ctx.query, { steps, start_path: start, end_path: end, limit: LIMIT }),
  )
  const go = (next: { steps?: number; start?: string; end?: string }) =>
    navigate(
      ctx.link({
        name: 'journeys',
        siteId: String(ctx.siteId),
        ...(next.steps !== undefined && next.steps !== DEFAULT_STEPS ? { steps: next.steps } : {}),
        ...(next.start ? { start: next.start } : {}),
        ...(next.end ? { end: next.end } : {}),
      }),
    )
  const answer = journeys.data
  return (
    <div className="stack">
      <ReportToolbar ctx={ctx} />
      <ImportedDaysNote ctx={ctx} />
      <JourneyOptions
        key={`${steps}:${start ?? ''}:${end ?? ''}`}
        steps={steps}
        start={start}
        end={end}
        onApply={go}
      />
      <section className="card" aria-labelledby="journeys-title" aria-busy={journeys.loading}>
        <h2 id="journeys-title">Journeys</h2>
        <p className="muted">
          The pages sessions went through, in order (a reload or a repeated page counts once), up to {steps}{' '}
          pages{start ? ` from ${start}` : ' from their first page'}
          {end ? ` ending at ${end}` : ''}. Sessions that saw only one page are not counted. Choose a page in
          the chart to start the journeys there.
        </p>
        <FormError error={journeys.error} />
        {!answer && journeys.loading && <Loading />}
        {answer && answer.data.length === 0 && (
          <p className="notice">
            No journeys in this period
            {start || end ? ' with these start and end pages' : ''}.
          </p>
        )}
        {answer && answer.data.length > 0 && (
          <>
            <p className="muted small" data-testid="journeys-summary">
              {formatCount(answer.meta.sessions)} sessions followed {formatCount(answer.meta.total)}{' '}
              {answer.meta.total === 1 ? 'journey' : 'journeys'}
              {answer.meta.total > answer.data.length ? `; the ${answer.data.length} most common:` : ':'}
            </p>
            <div className="sankey-wrap">
              <Suspense fallback={<Loading />}>
                <JourneySankey
                  paths={answer.data}
                  links={answer.links}
                  onChoose={(pathname) => go({ steps, start: pathname, end })}
                />
              </Suspense>
            </div>
            <div className="table-wrap">
              <table className="report-table journeys-table">
                <caption className="visually-hidden">Journeys, most sessions first</caption>
                <thead>
                  <tr>
                    <th scope="col">Journey</th>
                    <th scope="col" className="num">
                      Sessions
                    </th>
                    <th scope="col" className="num">
                      Share
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {answer.data.map((journey) => (
                    <tr key={JSON.stringify(journey.path)}>
                      <td className="path-cell">
                        <ol className="journey-path">
                          {journey.path.map((page, i) => (
                            // biome-ignore lint/suspicious/noArrayIndexKey: a page may repeat in a journey
                            <li key={i}>
                              <PathText path={page} />
                            </li>
                          ))}
                        </ol>
                      </td>
                      <td className="num">{formatCount(journey.sessions)}</td>
                      <td className="num">{formatPercent(journey.sessions / answer.meta.sessions)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>
    </div>
  )
}

/** Steps, start page and end page, applied together. */
function JourneyOptions({
  steps,
  start,
  end,
  onApply,
}: {
  steps: number
  start?: string
  end?: string
  onApply(next: { steps: number; start?: string; end?: string }): void
}) {
  const [stepsValue, setSteps] = useState(steps)
  const [startValue, setStart] = useState(start ?? '')
  const [endValue, setEnd] = useState(end ?? '')
  const apply = (event: FormEvent) => {
    event.preventDefault()
    onApply({ steps: stepsValue, start: startValue.trim(), end: endValue.trim() })
  }
  return (
    <form className="card toolbar-row journey-options" onSubmit={apply} aria-label="Journey options">
      <label className="inline-field">
        <span>Steps</span>
        <select value={stepsValue} onChange={(e) => setSteps(Number(e.target.value))}>
          {STEP_CHOICES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-field">
        <span>Start page</span>
        <input
          type="text"
          placeholder="any page"
          maxLength={2048}
          value={startValue}
          onChange={(e) => setStart(e.target.value)}
        />
      </label>
      <label className="inline-field">
        <span>End page</span>
        <input
          type="text"
          placeholder="any page"
          maxLength={2048}
          value={endValue}
          onChange={(e) => setEnd(e.target.value)}
        />
      </label>
      <button type="submit" className="button button-primary button-small">
        Show journeys
      </button>
      {(start || end) && (
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={() => onApply({ steps })}
        >
          Clear pages
        </button>
      )}
    </form>
  )
}
