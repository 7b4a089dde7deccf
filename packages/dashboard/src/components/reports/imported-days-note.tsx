/**
 * The note of a report that cannot use imported daily totals (funnels, journeys, retention, sessions,
 * replays: they need each visitor's events, which daily totals do not hold): shown when the site has
 * imported days (`importedDays` of its summary) and the range reaches into them. The overview's chart
 * says the same at hour buckets (`ImportedHoursNote`): daily totals cannot be split into hours.
 */
import { formatDate } from '../../lib/format'
import { useReport } from '../../lib/use-report'
import type { ReportContext } from '../../pages/report-context'

/** The site's imported days when the range of `ctx` reaches into them, else undefined. */
function useImportedDaysInRange(ctx: ReportContext): { from: string; to: string } | undefined {
  const summary = useReport(`summary:${ctx.siteId}`, () => ctx.reports.summary())
  const imported = summary.data?.importedDays
  if (!imported) return undefined
  const { startDate, endDate } = ctx.query
  return startDate <= imported.to && endDate >= imported.from ? imported : undefined
}

const daysText = ({ from, to }: { from: string; to: string }) =>
  from === to
    ? formatDate(`${from}T12:00:00Z`)
    : `${formatDate(`${from}T12:00:00Z`)} – ${formatDate(`${to}T12:00:00Z`)}`

/** "Imported days are left out" for the report of `ctx`, or nothing. */
export function ImportedDaysNote({ ctx }: { ctx: ReportContext }) {
  const imported = useImportedDaysInRange(ctx)
  if (!imported) return null
  return (
    <p className="notice" data-testid="imported-days-note">
      Imported days ({daysText(imported)}) are left out of this report: it needs each visitor’s events, and
      imported data holds daily totals only. The overview, its breakdowns and the time series include them.
    </p>
  )
}

/** "Imported days show at day buckets and above" under an hourly chart of `ctx`, or nothing. */
export function ImportedHoursNote({ ctx }: { ctx: ReportContext }) {
  const imported = useImportedDaysInRange(ctx)
  if (!imported) return null
  return (
    <p className="muted small" data-testid="imported-hours-note">
      Imported days ({daysText(imported)}) are daily totals: the hourly chart leaves them out; days, weeks and
      months include them.
    </p>
  )
}
