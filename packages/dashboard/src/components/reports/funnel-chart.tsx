/**
 * A funnel's steps as horizontal bars (width: the share of step-1 sessions), each with its sessions,
 * its conversion from the previous step, the median time from it, and the sessions that dropped
 * before it. Sessions and drop-offs are links to the sessions behind them.
 */
import type { FunnelStepResult } from '@pathlight/protocol'
import { formatCount, formatPercent, formatSeconds } from '../../lib/report-format'
import { Link } from '../../router/link'

/** The bars of `steps`; `hrefOf(step, outcome)` is the link to the sessions behind a figure. */
export function FunnelChart({
  steps,
  hrefOf,
}: {
  steps: FunnelStepResult[]
  hrefOf(step: number, outcome: 'reached' | 'dropped'): string
}) {
  return (
    <ol className="funnel-chart" aria-label="Funnel steps">
      {steps.map((step) => (
        <li key={step.step} className="funnel-bar-row" data-testid={`funnel-step-${step.step}`}>
          <div className="funnel-bar-head">
            <span className="funnel-step-name">
              {step.step}. {step.name}
            </span>
            <Link to={hrefOf(step.step, 'reached')} className="funnel-sessions">
              {formatCount(step.sessions)} {step.sessions === 1 ? 'session' : 'sessions'}
            </Link>
          </div>
          <div className="funnel-bar" aria-hidden="true">
            <span className="funnel-bar-fill" style={{ width: `${step.conversionFromStart * 100}%` }} />
          </div>
          <p className="muted small">
            {formatPercent(step.conversionFromStart)} of the start
            {step.step > 1 && <> · {formatPercent(step.conversionFromPrevious)} of the previous step</>}
            {step.medianSecondsFromPrevious !== null && (
              <> · median {formatSeconds(step.medianSecondsFromPrevious)} from the previous step</>
            )}
            {step.step > 1 && step.dropoff > 0 && (
              <>
                {' · '}
                <Link to={hrefOf(step.step - 1, 'dropped')} className="funnel-dropoff">
                  {formatCount(step.dropoff)} dropped
                </Link>
              </>
            )}
          </p>
        </li>
      ))}
    </ol>
  )
}
