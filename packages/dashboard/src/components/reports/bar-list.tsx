/**
 * Rows of a breakdown: each a button showing its value, its count and a bar proportional to the
 * largest count, optionally a second count (`secondLabel`: visitors beside events), and with a
 * comparison chosen the count's change against the compared range; a click does the row's `action`.
 */
import { formatChange, formatCount } from '../../lib/report-format'

export interface BarRow {
  key: string
  label: string
  count: number
  /** A second count shown after the first (the table's `secondLabel` column); the bar follows `count`. */
  second?: number
  /** Relative change against the compared range (null: nothing to compare with; absent: no comparison). */
  change?: number | null | undefined
  /** What a click does, in words ('Filter: Country is Germany'). */
  action: string
  onSelect(): void
}

/** The rows under a header naming the value and the count (`countLabel`, and `secondLabel` if given). */
export function BarList({
  rows,
  valueLabel,
  countLabel,
  secondLabel,
}: {
  rows: BarRow[]
  valueLabel: string
  countLabel: string
  secondLabel?: string
}) {
  const max = Math.max(1, ...rows.map((r) => r.count))
  return (
    <div className={secondLabel ? 'bar-table bar-table-two' : 'bar-table'}>
      <div className="bar-head" aria-hidden="true">
        <span className="bar-head-value">{valueLabel}</span>
        <span className="bar-count">{countLabel}</span>
        {secondLabel && <span className="bar-count">{secondLabel}</span>}
      </div>
      <ul className="bar-list">
        {rows.map((row) => (
          <li key={row.key}>
            <button type="button" className="bar-row" title={row.action} onClick={row.onSelect}>
              <span className="bar-fill" style={{ width: `${(row.count / max) * 100}%` }} />
              <span className="bar-label">{row.label}</span>
              <span className="bar-count">
                {formatCount(row.count, true)}
                <span className="visually-hidden"> {countLabel.toLowerCase()}</span>
              </span>
              {secondLabel && (
                <span className="bar-count bar-second">
                  {formatCount(row.second ?? 0, true)}
                  <span className="visually-hidden"> {secondLabel.toLowerCase()}</span>
                </span>
              )}
              {row.change !== undefined && (
                <span
                  className={`bar-change${row.change === null || row.change === 0 ? '' : row.change > 0 ? ' bar-up' : ' bar-down'}`}
                  data-testid="bar-change"
                >
                  {formatChange(row.change)}
                  <span className="visually-hidden"> against the compared days</span>
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}
