/** The report sections of a site, as tabs whose links keep the view (range, zone, filters, key). */
import { reportLabels } from '@pathlight/protocol/enums'
import { type ReactNode, useLayoutEffect, useRef } from 'react'
import { withView } from '../../lib/report-view'
import { useReportView } from '../../lib/use-report-view'
import { Link } from '../../router/link'
import { type ReportRouteName, type Route, routePath } from '../../router/routes'

export const reportTabs = [
  { name: 'site', label: 'Overview' },
  { name: 'goals', label: 'Goals' },
  { name: 'funnels', label: 'Funnels' },
  { name: 'errors', label: 'Errors' },
  { name: 'webVitals', label: reportLabels['web-vitals'] },
  { name: 'sessions', label: reportLabels.sessions },
  { name: 'journeys', label: 'Journeys' },
  { name: 'retention', label: 'Retention' },
  { name: 'crawlers', label: 'Crawlers' },
] as const satisfies readonly { name: ReportRouteName; label: string }[]

/** The tab a route belongs to (a goal's page is under Goals). */
export function tabOf(name: Route['name']): string {
  if (name === 'goal') return 'goals'
  if (name === 'errorDetail') return 'errors'
  if (name === 'session' || name === 'events') return 'sessions'
  if (name === 'webhook') return 'webhooks'
  if (name === 'user') return 'users'
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

/**
 * The site's tab bar. Tabs keep their width and the bar scrolls sideways when they do not fit (a phone's
 * width); the current tab is scrolled into the bar's view, horizontally only, whenever it changes.
 */
export function SiteTabs({ active, children }: { active: string; children: ReactNode }) {
  const nav = useRef<HTMLElement>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: the current link changes with `active`
  useLayoutEffect(() => {
    const bar = nav.current
    const link = bar?.querySelector<HTMLElement>('[aria-current="page"]')
    if (!bar || !link) return
    const barBox = bar.getBoundingClientRect()
    const linkBox = link.getBoundingClientRect()
    if (linkBox.left < barBox.left) bar.scrollLeft -= barBox.left - linkBox.left
    else if (linkBox.right > barBox.right) bar.scrollLeft += linkBox.right - barBox.right
  }, [active])
  return (
    <nav ref={nav} aria-label="Site" className="tabs">
      {children}
    </nav>
  )
}
