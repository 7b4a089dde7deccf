/**
 * A card of the overview with tabs over related breakdowns (pages, entry pages, exit pages): the top
 * rows of the selected one, "Show all" for up to 100, every row a filter.
 */
import { type ReactNode, useId, useState } from 'react'
import { breakdownPart } from '../../lib/overview-parts'
import type { ReportBatch } from '../../lib/report-batch'
import { type BreakdownDef, filterText, valueLabel } from '../../lib/report-labels'
import { withFilter } from '../../lib/report-view'
import { useReportPart } from '../../lib/use-report-part'
import type { ReportContext } from '../../pages/report-context'
import { FormError } from '../form-error'
import { BarList } from './bar-list'
import { Segmented } from './segmented'

const TOP = 8
const ALL = 100

/**
 * The card `title` with its `tabs`; `footer` goes under the rows (a data credit); `empty` replaces the
 * text shown without rows ('No data for this period.'). With `batch`, the top
 * rows come from the page's batch when it holds the tab's breakdown (its top 8 rows or more); all rows
 * are always asked alone.
 */
export function BreakdownCard({
  ctx,
  title,
  tabs,
  footer,
  empty,
  batch,
}: {
  ctx: ReportContext
  title: string
  tabs: readonly BreakdownDef[]
  footer?: ReactNode
  empty?: string
  batch?: ReportBatch
}) {
  const id = useId()
  const [tab, setTab] = useState(0)
  const [expanded, setExpanded] = useState(false)
  const def = tabs[tab] ?? tabs[0]
  const limit = expanded ? ALL : TOP
  // The card shows one count: the rows carry only it (the server builds no other count's sets).
  const part = breakdownPart({ name: def?.name ?? '', metric: def?.metric ?? 'visitors' }, limit)
  const report = useReportPart(ctx, part, expanded ? undefined : batch)
  if (!def) return null
  const rows = report.data?.data ?? []
  const total = report.data?.meta.total ?? 0
  return (
    <section className="card report-card" aria-labelledby={id} aria-busy={report.loading}>
      <div className="card-head">
        <h2 id={id}>{title}</h2>
        {tabs.length > 1 && (
          <Segmented
            label={`${title}: show`}
            options={tabs.map((t, i) => ({ value: String(i), label: t.tab }))}
            value={String(tab)}
            onChange={(value) => {
              setTab(Number(value))
              setExpanded(false)
            }}
          />
        )}
      </div>
      <FormError error={report.error} />
      {report.data && rows.length === 0 && (
        <p className="muted empty-rows">{empty ?? 'No data for this period.'}</p>
      )}
      {rows.length > 0 && (
        <BarList
          valueLabel={def.label}
          countLabel={def.metric === 'pageviews' ? 'Pageviews' : 'Visitors'}
          rows={rows.map((row) => {
            const filter = { parameter: def.parameter, type: 'equals' as const, value: [row.value] }
            return {
              key: row.value,
              label: valueLabel(def.parameter, row.value),
              count: row[def.metric] ?? 0,
              ...(row.change ? { change: row.change[def.metric] ?? null } : {}),
              action: `Filter: ${filterText(filter)}`,
              onSelect: () => ctx.setView(withFilter(ctx.view, filter)),
            }
          })}
        />
      )}
      <div className="card-foot">
        {total > rows.length && !expanded && (
          <button type="button" className="link-button" onClick={() => setExpanded(true)}>
            Show all {total}
          </button>
        )}
        {expanded && total > ALL && (
          <span className="muted">
            The top {ALL} of {total}
          </span>
        )}
        {expanded && (
          <button type="button" className="link-button" onClick={() => setExpanded(false)}>
            Show fewer
          </button>
        )}
        {footer}
      </div>
    </section>
  )
}
