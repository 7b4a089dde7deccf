/** The shares of good, needs-improvement and poor measurements as one stacked bar with its percentages. */
import type { WebVitalStats } from '@pathlight/protocol'
import { formatPercent } from '../../lib/report-format'

const bands = [
  ['good', 'Good'],
  ['needs_improvement', 'Needs improvement'],
  ['poor', 'Poor'],
] as const

/** The bar of `stats` (hidden from screen readers: the card says the same in words). */
export function BandBar({ stats }: { stats: Pick<WebVitalStats, 'good' | 'needs_improvement' | 'poor'> }) {
  return (
    <div className="band-bar" aria-hidden="true">
      {bands.map(([band, label]) =>
        stats[band] > 0 ? (
          <span
            key={band}
            className={`band band-${band}`}
            style={{ width: `${stats[band] * 100}%` }}
            title={`${label}: ${formatPercent(stats[band])}`}
          >
            {stats[band] >= 0.12 ? formatPercent(stats[band]) : ''}
          </span>
        ) : null,
      )}
    </div>
  )
}
