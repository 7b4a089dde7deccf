/**
 * The overview's world map card: visitors per country (the `countries` breakdown, up to 250 rows) on a
 * lazily loaded map; clicking a country adds a country filter, like the rows of the other cards. The
 * DB-IP credit for the countries is the Locations card's, next to it: the overview shows it once.
 */
import { lazy, Suspense, useId } from 'react'
import { countriesPart } from '../../lib/overview-parts'
import type { ReportBatch } from '../../lib/report-batch'
import { valueLabel } from '../../lib/report-labels'
import { withFilter } from '../../lib/report-view'
import { useReportPart } from '../../lib/use-report-part'
import type { ReportContext } from '../../pages/report-context'
import { FormError } from '../form-error'

const WorldMap = lazy(() => import('./world-map'))

/** The card; with `batch`, the countries come from it when it holds them (id `countries`, 250 rows). */
export function WorldMapCard({ ctx, batch }: { ctx: ReportContext; batch?: ReportBatch }) {
  const id = useId()
  const report = useReportPart(ctx, countriesPart, batch)
  const visitors = new Map((report.data?.data ?? []).map((row) => [row.value, row.visitors ?? 0]))
  return (
    <section className="card report-card world-map-card" aria-labelledby={id} aria-busy={report.loading}>
      <div className="card-head">
        <h2 id={id}>Visitors by country</h2>
      </div>
      <FormError error={report.error} />
      <Suspense fallback={<p className="muted">Loading the map…</p>}>
        <WorldMap
          visitors={visitors}
          nameOf={(code) => valueLabel('country', code)}
          onSelect={(code) =>
            ctx.setView(withFilter(ctx.view, { parameter: 'country', type: 'equals', value: [code] }))
          }
        />
      </Suspense>
    </section>
  )
}
