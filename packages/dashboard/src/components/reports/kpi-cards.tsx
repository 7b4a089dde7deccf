/**
 * The headline figures of the range with their change against the previous period of equal length.
 * The change is green when it is an improvement (a lower bounce rate is one).
 */
import type { Stats, Totals } from '@pathlight/protocol'
import { formatDayRange } from '../../lib/dates'
import {
  formatChange,
  formatCount,
  formatDecimal,
  formatPercent,
  formatSeconds,
} from '../../lib/report-format'

interface Kpi {
  key: Exclude<keyof Totals, 'events'>
  label: string
  format: (value: number) => string
  lowerIsBetter?: boolean
}

export const kpis: Kpi[] = [
  { key: 'visitors', label: 'Visitors', format: (v) => formatCount(v, true) },
  { key: 'sessions', label: 'Sessions', format: (v) => formatCount(v, true) },
  { key: 'pageviews', label: 'Pageviews', format: (v) => formatCount(v, true) },
  { key: 'bounce_rate', label: 'Bounce rate', format: formatPercent, lowerIsBetter: true },
  { key: 'session_duration', label: 'Session duration', format: formatSeconds },
  { key: 'pages_per_session', label: 'Pages per session', format: formatDecimal },
]

/** The six cards; placeholders while the first figures load. */
export function KpiCards({
  stats,
  previousRange,
  stale,
}: {
  stats: Stats | undefined
  previousRange: { startDate: string; endDate: string } | undefined
  stale: boolean
}) {
  const versus = previousRange
    ? `vs. ${formatDayRange(previousRange.startDate, previousRange.endDate)}`
    : 'vs. the previous period'
  return (
    <ul className="kpis" aria-label="Key figures" aria-busy={stale}>
      {kpis.map((kpi) => {
        const value = stats?.current[kpi.key]
        const change = stats?.change?.[kpi.key] ?? null
        const previous = stats?.previous?.[kpi.key]
        const direction = change === null || change === 0 ? 'flat' : change > 0 ? 'up' : 'down'
        const good = direction !== 'flat' && (direction === 'up') !== Boolean(kpi.lowerIsBetter)
        const tone = direction === 'flat' ? '' : good ? ' kpi-good' : ' kpi-bad'
        const arrow = direction === 'up' ? '▲' : direction === 'down' ? '▼' : ''
        return (
          <li key={kpi.key} className="kpi" data-kpi={kpi.key}>
            <span className="kpi-label">{kpi.label}</span>
            <span className="kpi-value">{value === undefined ? '…' : kpi.format(value)}</span>
            {stats?.change && (
              <span
                className={`kpi-change kpi-${direction}${tone}`}
                title={`${versus}: ${previous === undefined ? '' : kpi.format(previous)}`}
              >
                <span aria-hidden="true">{arrow}</span> {formatChange(change)}
                <span className="visually-hidden"> {versus}</span>
              </span>
            )}
          </li>
        )
      })}
    </ul>
  )
}
