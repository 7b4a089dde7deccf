/**
 * The options above every report: the period (presets or custom days), the time zone, the saved
 * segment, and the active filters as removable chips. Every change goes into the URL
 * (`ReportContext.setView`).
 */
import { type FormEvent, type ReactNode, useState } from 'react'
import { formatDayRange } from '../../lib/dates'
import { type Period, periodLabels, periods, zoneOf } from '../../lib/report-view'
import type { ReportContext } from '../../pages/report-context'
import { ComparePicker } from './compare-picker'
import { FilterChips } from './filter-chips'
import { SegmentMenu } from './segment-menu'

let zones: string[] | undefined

/** Every zone the browser knows, UTC first. */
function timeZones(): string[] {
  zones ??= ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')]
  return zones
}

/** Period, zone and filters of the report in `ctx`; `aside` goes at the end of the first row. */
export function ReportToolbar({ ctx, aside }: { ctx: ReportContext; aside?: ReactNode }) {
  const { view, query, setView } = ctx
  const zone = zoneOf(view)
  const choosePeriod = (period: Period) => {
    if (period === 'custom') {
      setView({ ...view, period, from: query.startDate, to: query.endDate, page: undefined })
    } else setView({ ...view, period, from: undefined, to: undefined, page: undefined })
  }
  const options = timeZones().includes(zone) ? timeZones() : [zone, ...timeZones()]
  return (
    <section className="report-toolbar" aria-label="Report options">
      <div className="toolbar-row">
        <label className="inline-field">
          <span>Period</span>
          <select value={view.period} onChange={(e) => choosePeriod(e.target.value as Period)}>
            {periods.map((p) => (
              <option key={p} value={p}>
                {periodLabels[p]}
              </option>
            ))}
          </select>
        </label>
        {view.period === 'custom' && <CustomRange key={`${query.startDate}/${query.endDate}`} ctx={ctx} />}
        <label className="inline-field">
          <span>Time zone</span>
          <select value={zone} onChange={(e) => setView({ ...view, tz: e.target.value, page: undefined })}>
            {options.map((z) => (
              <option key={z} value={z}>
                {z.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </label>
        <ComparePicker ctx={ctx} />
      </div>
      <div className="toolbar-row toolbar-facts">
        {aside}
        <p className="range-text" data-testid="range">
          {formatDayRange(query.startDate, query.endDate)}
        </p>
      </div>
      <SegmentMenu ctx={ctx} />
      <FilterChips ctx={ctx} />
    </section>
  )
}

/** The first and last day of a custom period, applied together. */
function CustomRange({ ctx }: { ctx: ReportContext }) {
  const [from, setFrom] = useState(ctx.query.startDate)
  const [to, setTo] = useState(ctx.query.endDate)
  const apply = (event: FormEvent) => {
    event.preventDefault()
    if (from && to && from <= to) ctx.setView({ ...ctx.view, period: 'custom', from, to, page: undefined })
  }
  return (
    <form className="custom-range" onSubmit={apply}>
      <label className="inline-field">
        <span>From</span>
        <input type="date" required value={from} max={to} onChange={(e) => setFrom(e.target.value)} />
      </label>
      <label className="inline-field">
        <span>To</span>
        <input type="date" required value={to} min={from} onChange={(e) => setTo(e.target.value)} />
      </label>
      <button type="submit" className="button button-secondary button-small">
        Apply
      </button>
    </form>
  )
}
