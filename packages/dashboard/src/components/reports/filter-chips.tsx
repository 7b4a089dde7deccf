/** The report's filters as chips; each removes its filter, "Clear filters" removes them all. */
import { filterText } from '../../lib/report-labels'
import { withoutFilter } from '../../lib/report-view'
import type { ReportContext } from '../../pages/report-context'

/** Nothing without filters. */
export function FilterChips({ ctx }: { ctx: ReportContext }) {
  const { view, setView } = ctx
  if (view.filters.length === 0) return null
  return (
    <div className="filter-bar">
      <span className="muted">Filtered by</span>
      <ul className="filter-chips" aria-label="Filters">
        {view.filters.map((filter, index) => {
          const text = filterText(filter)
          return (
            <li key={`${filter.parameter}:${filter.type}`} className="filter-chip">
              <span>{text}</span>
              <button
                type="button"
                aria-label={`Remove filter: ${text}`}
                title="Remove this filter"
                onClick={() => setView(withoutFilter(view, index))}
              >
                ×
              </button>
            </li>
          )
        })}
      </ul>
      {view.filters.length > 1 && (
        <button
          type="button"
          className="link-button"
          onClick={() => setView({ ...view, filters: [], page: undefined })}
        >
          Clear filters
        </button>
      )}
    </div>
  )
}
