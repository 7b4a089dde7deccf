/** Custom events of the range by name (events fired); a row filters by its event. */
import { useId } from 'react'
import type { ReportBatch } from '../../lib/report-batch'
import { filterText } from '../../lib/report-labels'
import { withFilter } from '../../lib/report-view'
import { useReport } from '../../lib/use-report'
import type { ReportContext } from '../../pages/report-context'
import { FormError } from '../form-error'
import { BarList } from './bar-list'

/** The card; the most frequent 8 names (from `batch` when it holds them, id `event-names`). */
export function EventsCard({ ctx, batch }: { ctx: ReportContext; batch?: ReportBatch }) {
  const id = useId()
  const report = useReport(`event-names:${ctx.queryKey}`, () => {
    const single = () => ctx.reports.eventNames(ctx.query, { limit: 8 }, ['events'])
    return batch ? batch.load('event-names', single) : single()
  })
  const rows = report.data?.data ?? []
  return (
    <section className="card report-card" aria-labelledby={id} aria-busy={report.loading}>
      <div className="card-head">
        <h2 id={id}>Custom events</h2>
      </div>
      <FormError error={report.error} />
      {report.data && rows.length === 0 && (
        <p className="muted empty-rows">No custom events in this period.</p>
      )}
      {rows.length > 0 && (
        <BarList
          valueLabel="Event"
          countLabel="Events"
          rows={rows.map((row) => {
            const filter = { parameter: 'event_name' as const, type: 'equals' as const, value: [row.name] }
            return {
              key: row.name,
              label: row.name,
              count: row.events,
              action: `Filter: ${filterText(filter)}`,
              onSelect: () => ctx.setView(withFilter(ctx.view, filter)),
            }
          })}
        />
      )}
    </section>
  )
}
