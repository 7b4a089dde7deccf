/**
 * The frame of a site's pages for members: loads the site (404 when the caller cannot reach it),
 * shows its name, domain and sections (the reports, then users, settings, webhooks and alerts), and
 * hands the page the site and the caller's role in its organization.
 */
import type { Role, Site } from '@pathlight/protocol'
import { type ReactNode, useEffect, useState } from 'react'
import { api } from '../api/api'
import { AppShell } from '../components/app-shell'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { PageHeading } from '../components/page-heading'
import { ReportTabLinks, reportTabs, SiteTabs, tabOf } from '../components/reports/report-tabs'
import { prefetchOverviewOf } from '../lib/overview-prefetch'
import { prefetchSiteStatus } from '../lib/site-status-prefetch'
import { useResource } from '../lib/use-resource'
import { Link } from '../router/link'
import { isReportRoute, type ReportRouteName, type Route, routePath } from '../router/routes'
import { isAdmin, rememberOrganization, rememberSite, useSession } from '../session'
import { NotFoundPage } from './not-found-page'
import { SharedScope } from './shared-scope'

export interface SiteContext {
  site: Site
  role: Role | null
  /** Admin or owner: may change settings, goals, webhooks and alerts. */
  canAdmin: boolean
  /** Replace the site after a change the server confirmed. */
  setSite(site: Site): void
}

type SiteRouteName = ReportRouteName | 'siteSettings' | 'webhooks' | 'webhook' | 'alerts' | 'users' | 'user'

/** Tabs for members only, after the report tabs: Users (profiles are personal data, not shared). */
const memberTabs = [{ name: 'users', label: 'Users' }] as const

const adminTabs = [
  { name: 'siteSettings', label: 'Settings' },
  { name: 'webhooks', label: 'Webhooks' },
  { name: 'alerts', label: 'Alerts' },
] as const

const tabLabels: Record<string, string> = Object.fromEntries(
  [...reportTabs, ...memberTabs, ...adminTabs].map((t) => [t.name, t.label]),
)

/** Render `children` with the site `siteId` once loaded, inside the frame of its `route`. */
export function SiteScope({
  siteId,
  route,
  children,
}: {
  siteId: string
  route: Extract<Route, { name: SiteRouteName }>
  children: (context: SiteContext) => ReactNode
}) {
  const { roleIn, organizations } = useSession()
  // The site's home needs to know whether it has events, and shows the overview when it has: ask for
  // both while the site loads, not one after the other.
  useState(() => {
    if (route.name !== 'site') return
    prefetchSiteStatus(siteId)
    prefetchOverviewOf(Number(siteId), window.location.search.replace(/^\?/, ''))
  })
  const site = useResource(`site:${siteId}`, () => api.site(siteId))
  const opened = site.data
  useEffect(() => {
    if (!opened) return
    rememberSite(opened.siteId)
    rememberOrganization(opened.organizationId)
  }, [opened])
  if (site.error?.status === 404) {
    // Not a member: a public site's reports are still readable, as a shared view.
    return isReportRoute(route) ? (
      <SharedScope route={route} privateKey={undefined} signedIn />
    ) : (
      <NotFoundPage what="Site" />
    )
  }
  if (!site.data || !organizations) {
    return (
      <AppShell>
        <FormError error={site.error} />
        {site.loading && <Loading />}
      </AppShell>
    )
  }
  const current = site.data
  const role = roleIn(current.organizationId)
  const activeTab = tabOf(route.name)
  const id = String(current.siteId)
  return (
    <AppShell organizationId={current.organizationId}>
      <div className="site-head">
        <PageHeading
          key={route.name}
          title={current.name}
          documentTitle={`${tabLabels[activeTab] ?? ''} · ${current.name}`}
        />
        <p className="site-domain">{current.domain}</p>
      </div>
      <SiteTabs active={activeTab}>
        <ReportTabLinks siteId={id} active={activeTab} />
        {[...memberTabs, ...adminTabs].map((tab) => (
          <Link
            key={tab.name}
            to={routePath({ name: tab.name, siteId: id })}
            current={tab.name === activeTab}
          >
            {tab.label}
          </Link>
        ))}
      </SiteTabs>
      {children({
        site: current,
        role,
        canAdmin: isAdmin(role),
        setSite: (next) => site.setData(() => next),
      })}
    </AppShell>
  )
}
