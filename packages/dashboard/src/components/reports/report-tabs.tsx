/** The report sections of a site, as tabs whose links keep the view (range, zone, filters, key). */
import { withView } from '../../lib/report-view'
import { useReportView } from '../../lib/use-report-view'
import { Link } from '../../router/link'
import { type ReportRouteName, type Route, routePath } from '../../router/routes'

export const reportTabs = [
  { name: 'site', label: 'Overview' },
  { name: 'goals', label: 'Goals' },
  { name: 'funnels', label: 'Funnels' },
  { name: 'errors', label: 'Errors' },
  { name: 'webVitals', label: 'Web vitals' },
  { name: 'sessions', label: 'Sessions' },
  { name: 'journeys', label: 'Journeys' },
  { name: 'retention', label: 'Retention' },
] as const satisfies readonly { name: ReportRouteName; label: string }[]

/** The tab a route belongs to (a goal's page is under Goals). */
export function tabOf(name: Route['name']): string {
  if (name === 'goal') return 'goals'
  if (name === 'errorDetail') return 'errors'
  if (name === 'session' || name === 'events') return 'sessions'
  if (name === 'webhook') return 'webhooks'
  return name
}

/** Links of the report tabs of `siteId` (`active`: the current tab's name). */
export function ReportTabLinks({ siteId, active }: { siteId: string; active: string }) {
  const { view } = useReportView()
  const kept = { ...view, page: undefined }
  return (
    <>
      {reportTabs.map((tab) => (
        <Link
          key={tab.name}
          to={withView(routePath({ name: tab.name, siteId }), kept)}
          current={tab.name === active}
        >
          {tab.label}
        </Link>
      ))}
    </>
  )
}
