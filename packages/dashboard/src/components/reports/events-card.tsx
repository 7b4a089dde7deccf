/**
 * Custom events of the range by name (events fired). A row opens the event's custom properties in
 * the card (`event-properties.tsx`, loaded on first use): its keys, a key's values, each value a filter.
 * The open event and its chosen key are the view's `event` and `property`, so a reload, a bookmark or
 * a shared link opens the same panel, and Back closes it.
 */
import { reportLabels } from '@pathlight/protocol/enums'
import { lazy, Suspense, useEffect, useId, useRef } from 'react'
import { eventNamesPart } from '../../lib/overview-parts'
import type { ReportBatch } from '../../lib/report-batch'
import { useReportPart } from '../../lib/use-report-part'
import type { ReportContext } from '../../pages/report-context'
import { FormError } from '../form-error'
import { Loading } from '../loading'
import { BarList } from './bar-list'

const EventProperties = lazy(() =>
  import('./event-properties').then((panel) => ({ default: panel.EventProperties })),
)

/** The card; the most frequent 8 names (from `batch` when it holds them, id `event-names`). */
export function EventsCard({ ctx, batch }: { ctx: ReportContext; batch?: ReportBatch }) {
  const id = useId()
  // The event whose properties are open (none: the list of events).
  const open = ctx.view.event
  const setOpen = (event: string | undefined) =>
    ctx.setView({ ...ctx.view, event, property: undefined, page: undefined })
  const card = useRef<HTMLElement>(null)
  // Closing the panel gives the focus back to the row of the event it showed.
  const closed = useRef<string>(undefined)
  useEffect(() => {
    if (open !== undefined || closed.current === undefined) return
    const title = `Properties of ${closed.current}`
    closed.current = undefined
    for (const button of card.current?.querySelectorAll('button.bar-row') ?? [])
      if (button.getAttribute('title') === title) (button as HTMLButtonElement).focus()
  }, [open])
  const report = useReportPart(ctx, eventNamesPart, batch)
  const rows = report.data?.data ?? []
  return (
    <section ref={card} className="card report-card" aria-labelledby={id} aria-busy={report.loading}>
      <div className="card-head">
        <h2 id={id}>{reportLabels['event-names']}</h2>
      </div>
      {open !== undefined ? (
        <Suspense fallback={<Loading />}>
          <EventProperties
            ctx={ctx}
            eventName={open}
            onClose={() => {
              closed.current = open
              setOpen(undefined)
            }}
          />
        </Suspense>
      ) : (
        <>
          <FormError error={report.error} />
          {report.data && rows.length === 0 && (
            <p className="muted empty-rows">No custom events in this period.</p>
          )}
          {rows.length > 0 && (
            <BarList
              valueLabel="Event"
              countLabel="Events"
              rows={rows.map((row) => ({
                key: row.name,
                label: row.name,
                count: row.events,
                action: `Properties of ${row.name}`,
                onSelect: () => setOpen(row.name),
              }))}
            />
          )}
        </>
      )}
    </section>
  )
}
