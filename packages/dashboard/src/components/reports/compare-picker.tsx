/**
 * What the report compares with: the previous period (the API's default, with no compared series on
 * the chart until chosen), the previous year, custom days, or nothing; and whether the compared days
 * fall on the same weekdays. The choice is the URL's `compare`, `compare_from`, `compare_to` and `dow`
 * (`report-view.ts`), sent to the API as `compare`, `compare_start_date`, `compare_end_date` and
 * `match_day_of_week`.
 */
import type { CompareMode } from '@pathlight/protocol'
import { type FormEvent, useState } from 'react'
import { addDays } from '../../lib/dates'
import type { ReportContext } from '../../pages/report-context'

const labels: Record<CompareMode | '', string> = {
  '': 'Previous period',
  previous_period: 'Previous period (on the chart)',
  previous_year: 'Previous year',
  custom: 'Custom days',
  none: 'Nothing',
}

/** The comparison options of the report in `ctx`. */
export function ComparePicker({ ctx }: { ctx: ReportContext }) {
  const { view, query, setView } = ctx
  const choose = (value: CompareMode | '') => {
    const base = { ...view, compareFrom: undefined, compareTo: undefined, page: undefined }
    if (value === '') setView({ ...base, compare: undefined, matchDayOfWeek: undefined })
    else if (value === 'custom') {
      // Start from the days just before the range; the reader changes them and applies.
      const compareFrom = addDays(query.startDate, -ctx.days)
      setView({ ...base, compare: value, compareFrom, compareTo: addDays(query.startDate, -1) })
    } else setView({ ...base, compare: value })
  }
  return (
    <>
      <label className="inline-field">
        <span>Compare with</span>
        <select value={view.compare ?? ''} onChange={(e) => choose(e.target.value as CompareMode | '')}>
          {(Object.keys(labels) as (CompareMode | '')[]).map((mode) => (
            <option key={mode} value={mode}>
              {labels[mode]}
            </option>
          ))}
        </select>
      </label>
      {view.compare === 'custom' && <CompareRange key={`${view.compareFrom}/${view.compareTo}`} ctx={ctx} />}
      {view.compare && view.compare !== 'none' && (
        <label className="inline-field">
          <input
            type="checkbox"
            checked={view.matchDayOfWeek === true}
            onChange={(e) =>
              setView({ ...view, matchDayOfWeek: e.target.checked ? true : undefined, page: undefined })
            }
          />
          <span>Match weekdays</span>
        </label>
      )}
    </>
  )
}

/** The first and last compared day of a custom comparison, applied together. */
function CompareRange({ ctx }: { ctx: ReportContext }) {
  const [from, setFrom] = useState(ctx.view.compareFrom ?? ctx.query.startDate)
  const [to, setTo] = useState(ctx.view.compareTo ?? ctx.query.endDate)
  const apply = (event: FormEvent) => {
    event.preventDefault()
    if (from && to && from <= to) {
      ctx.setView({ ...ctx.view, compare: 'custom', compareFrom: from, compareTo: to, page: undefined })
    }
  }
  return (
    <form className="custom-range" onSubmit={apply} aria-label="Compared days">
      <label className="inline-field">
        <span>Compare from</span>
        <input type="date" required value={from} max={to} onChange={(e) => setFrom(e.target.value)} />
      </label>
      <label className="inline-field">
        <span>to</span>
        <input type="date" required value={to} min={from} onChange={(e) => setTo(e.target.value)} />
      </label>
      <button type="submit" className="button button-secondary button-small">
        Apply
      </button>
    </form>
  )
}
