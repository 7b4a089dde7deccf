/**
 * The frame of a site's pages: loads the site (404 when the caller cannot reach it), shows its name,
 * domain and sections, and hands the page the site and the caller's role in its organization.
 */
import type { ReactNode } from 'react'
import { api } from '../api/api'
import type { Role, Site } from '../api/types'
import { AppShell } from '../components/app-shell'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { PageHeading } from '../components/page-heading'
import { useResource } from '../lib/use-resource'
import { Link } from '../router/link'
import { type Route, routePath } from '../router/routes'
import { isAdmin, useSession } from '../session'
import { NotFoundPage } from './not-found-page'

export interface SiteContext {
  site: Site
  role: Role | null
  /** Admin or owner: may change settings, webhooks and alerts. */
  canAdmin: boolean
  /** Replace the site after a change the server confirmed. */
  setSite(site: Site): void
}

type SiteTab = 'site' | 'siteSettings' | 'webhooks' | 'webhook' | 'alerts'

const tabs: { name: Exclude<SiteTab, 'webhook'>; label: string }[] = [
  { name: 'site', label: 'Overview' },
  { name: 'siteSettings', label: 'Settings' },
  { name: 'webhooks', label: 'Webhooks' },
  { name: 'alerts', label: 'Alerts' },
]

/** Render `children` with the site `siteId` once loaded, inside the frame of its `route`. */
export function SiteScope({
  siteId,
  route,
  children,
}: {
  siteId: string
  route: Extract<Route, { name: SiteTab }>
  children: (context: SiteContext) => ReactNode
}) {
  const { roleIn, organizations } = useSession()
  const site = useResource(`site:${siteId}`, () => api.site(siteId))
  if (site.error?.status === 404) return <NotFoundPage what="Site" />
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
  const activeTab = route.name === 'webhook' ? 'webhooks' : route.name
  const tabLabel = tabs.find((t) => t.name === activeTab)?.label ?? ''
  return (
    <AppShell organizationId={current.organizationId}>
      <div className="site-head">
        <PageHeading key={route.name} title={current.name} documentTitle={`${tabLabel} · ${current.name}`} />
        <p className="site-domain">{current.domain}</p>
      </div>
      <nav aria-label="Site" className="tabs">
        {tabs.map((tab) => (
          <Link
            key={tab.name}
            to={routePath({ name: tab.name, siteId: String(current.siteId) })}
            current={tab.name === activeTab}
          >
            {tab.label}
          </Link>
        ))}
      </nav>
      {children({
        site: current,
        role,
        canAdmin: isAdmin(role),
        setSite: (next) => site.setData(() => next),
      })}
    </AppShell>
  )
}
