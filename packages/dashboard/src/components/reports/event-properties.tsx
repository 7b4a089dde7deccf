/**
 * The custom properties of one custom event, shown in the overview's custom events card (loaded
 * lazily, off the first screen's path): the keys its events carry in the range (most events first)
 * and, for the chosen key, its values with events and visitors, the top 8 or all of them 100 a page.
 * A value adds two filters, the event's name and the property's value, so the figures of every card
 * become those of the value's row. The range, filters and segment of the view apply throughout.
 */
import { useEffect, useId, useRef, useState } from 'react'
import { propertyValueFilters, withPropertyValue } from '../../lib/property-filters'
import { filterText } from '../../lib/report-labels'
import { withFilter } from '../../lib/report-view'
import { useReport } from '../../lib/use-report'
import type { ReportContext } from '../../pages/report-context'
import { FormError } from '../form-error'
import { BarList } from './bar-list'

const TOP = 8
const PAGE = 100
/** Keys offered in the picker (the most frequent). */
const MAX_KEYS = 100

/** The panel of `eventName`; `onClose` goes back to the list of events. */
export function EventProperties({
  ctx,
  eventName,
  onClose,
}: {
  ctx: ReportContext
  eventName: string
  onClose(): void
}) {
  const pickerId = useId()
  const back = useRef<HTMLButtonElement>(null)
  // The key chosen in the view's `property`; a new choice replaces the history entry.
  const chosen = ctx.view.property
  const setChosen = (property: string) => ctx.setView({ ...ctx.view, property }, { replace: true })
  const keys = useReport(`property-keys:${eventName}:${ctx.queryKey}`, () =>
    ctx.reports.propertyKeys(ctx.query, eventName, { limit: MAX_KEYS }),
  )
  // Focus moves into the panel that replaced the row the reader chose.
  useEffect(() => back.current?.focus(), [])
  const list = keys.data?.data ?? []
  // The chosen key while the range still has it, else the most frequent one.
  const key = list.find((row) => row.key === chosen)?.key ?? list[0]?.key
  const eventFilter = { parameter: 'event_name' as const, type: 'equals' as const, value: [eventName] }
  return (
    <div className="event-properties" data-testid="event-properties">
      <div className="event-properties-head">
        <button ref={back} type="button" className="link-button" onClick={onClose}>
          ← All events
        </button>
        <h3>{eventName}</h3>
        <button
          type="button"
          className="link-button"
          onClick={() => ctx.setView(withFilter(ctx.view, eventFilter))}
        >
          Filter: {filterText(eventFilter)}
        </button>
      </div>
      <FormError error={keys.error} />
      {keys.data && list.length === 0 && (
        <p className="muted empty-rows">These events carry no properties in this period.</p>
      )}
      {key !== undefined && (
        <>
          <div className="inline-field event-properties-picker">
            <label htmlFor={pickerId}>Property</label>
            <select id={pickerId} value={key} onChange={(e) => setChosen(e.target.value)}>
              {list.map((row) => (
                <option key={row.key} value={row.key}>
                  {row.key}
                </option>
              ))}
            </select>
          </div>
          <PropertyValues key={`${key}:${ctx.queryKey}`} ctx={ctx} eventName={eventName} propertyKey={key} />
        </>
      )}
    </div>
  )
}

/** The values of `propertyKey` on `eventName`'s events: the top 8, or all of them a page at a time. */
function PropertyValues({
  ctx,
  eventName,
  propertyKey,
}: {
  ctx: ReportContext
  eventName: string
  propertyKey: string
}) {
  const [expanded, setExpanded] = useState(false)
  const [page, setPage] = useState(1)
  const limit = expanded ? PAGE : TOP
  const shownPage = expanded ? page : 1
  const report = useReport(
    `property-values:${eventName}:${propertyKey}:${limit}:${shownPage}:${ctx.queryKey}`,
    () => ctx.reports.propertyValues(propertyKey, ctx.query, eventName, { limit, page: shownPage }),
  )
  const rows = report.data?.data ?? []
  const total = report.data?.meta.total ?? 0
  const pages = Math.max(1, Math.ceil(total / PAGE))
  return (
    <div aria-busy={report.loading}>
      <FormError error={report.error} />
      {report.data && rows.length === 0 && <p className="muted empty-rows">No values in this period.</p>}
      {rows.length > 0 && (
        <BarList
          valueLabel={propertyKey}
          countLabel="Events"
          secondLabel="Visitors"
          rows={rows.map((row) => {
            const filters = propertyValueFilters(eventName, propertyKey, row.value)
            return {
              key: row.value,
              label: row.value === '' ? '(none)' : row.value,
              count: row.events,
              second: row.visitors,
              action: `Filter: ${filters.map(filterText).join(' and ')}`,
              onSelect: () => ctx.setView(withPropertyValue(ctx.view, eventName, propertyKey, row.value)),
            }
          })}
        />
      )}
      <div className="card-foot">
        {!expanded && total > rows.length && (
          <button type="button" className="link-button" onClick={() => setExpanded(true)}>
            Show all {total}
          </button>
        )}
        {expanded && pages > 1 && (
          <span className="property-pages">
            <button
              type="button"
              className="link-button"
              disabled={page <= 1}
              onClick={() => setPage((p) => p - 1)}
            >
              ← Previous
            </button>
            <span className="muted">
              Page {page} of {pages}
            </span>
            <button
              type="button"
              className="link-button"
              disabled={page >= pages}
              onClick={() => setPage((p) => p + 1)}
            >
              Next →
            </button>
          </span>
        )}
        {expanded && (
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setExpanded(false)
              setPage(1)
            }}
          >
            Show fewer
          </button>
        )}
      </div>
    </div>
  )
}
