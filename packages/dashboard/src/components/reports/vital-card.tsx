/**
 * One web vital: its p75 coloured by band, the shares of measurements that were good, needed
 * improvement or were poor (a stacked bar), p50 and p90, and the band limits.
 */
import type { WebVitalName, WebVitalStats, WebVitalThreshold } from '@pathlight/protocol'
import { formatCount, formatPercent, formatVital } from '../../lib/report-format'
import { ratingLabels, vitalLabels } from '../../lib/vital-labels'
import { BandBar } from './band-bar'

/** The card of `name`. */
export function VitalCard({
  name,
  stats,
  threshold,
}: {
  name: WebVitalName
  stats: WebVitalStats
  threshold: WebVitalThreshold
}) {
  const label = vitalLabels[name]
  return (
    <li className={`vital-card vital-${stats.rating ?? 'none'}`} data-vital={name}>
      <p className="vital-name">
        {label.short} <span className="vital-long muted small">{label.name}</span>
      </p>
      <p className="vital-value">
        <span className="vital-p75">{formatVital(stats.p75, threshold.unit)}</span>{' '}
        <span className="muted small">p75</span>
      </p>
      <p className="vital-rating">{stats.rating ? ratingLabels[stats.rating] : 'No measurements'}</p>
      {stats.samples > 0 && <BandBar stats={stats} />}
      <p className="muted small">
        <span className="nowrap">p50 {formatVital(stats.p50, threshold.unit)}</span> ·{' '}
        <span className="nowrap">p90 {formatVital(stats.p90, threshold.unit)}</span> ·{' '}
        <span className="nowrap">
          {formatCount(stats.samples)} {stats.samples === 1 ? 'measurement' : 'measurements'}
        </span>
      </p>
      <p className="muted small">
        <span className="nowrap">Good ≤ {formatVital(threshold.good, threshold.unit)}</span> ·{' '}
        <span className="nowrap">poor &gt; {formatVital(threshold.poor, threshold.unit)}</span>
      </p>
      <span className="visually-hidden">
        {formatPercent(stats.good)} good, {formatPercent(stats.needs_improvement)} needs improvement,{' '}
        {formatPercent(stats.poor)} poor
      </span>
    </li>
  )
}
