/**
 * `/`, where signing in lands: the site looked at last when it is still in the organization looked at
 * last (or the first organization), else that organization's first site; the organization's page when
 * it has no site yet; onboarding for a new user without an organization.
 */

import { api } from '../api/api'
import { ApiError } from '../api/api-error'
import { AppShell } from '../components/app-shell'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { useResource } from '../lib/use-resource'
import { Redirect } from '../router/redirect'
import { routePath } from '../router/routes'
import { lastOrganization, lastSite, useSession } from '../session'

/** Renders a redirect (or the loading and error states of the organizations list). */
export function HomePage() {
  const { organizations, organizationsError } = useSession()
  if (organizationsError) {
    return (
      <AppShell>
        <FormError error={new ApiError(0, organizationsError)} title="Could not load your organizations" />
      </AppShell>
    )
  }
  if (!organizations)
    return (
      <AppShell>
        <Loading />
      </AppShell>
    )
  if (organizations.length === 0) return <Redirect to={routePath({ name: 'newOrganization' })} />
  const last = lastOrganization()
  const target = organizations.find((o) => o.id === last) ?? organizations[0]
  return <OrganizationHome organizationId={target?.id ?? ''} />
}

/** Open a site of `organizationId` (the last looked at, else the first), or the organization without one. */
function OrganizationHome({ organizationId }: { organizationId: string }) {
  const sites = useResource(`sites:${organizationId}`, () => api.sites(organizationId))
  if (sites.error) return <Redirect to={routePath({ name: 'organization', organizationId })} />
  if (!sites.data)
    return (
      <AppShell>
        <Loading />
      </AppShell>
    )
  const remembered = lastSite()
  const site = sites.data.find((s) => s.siteId === remembered) ?? sites.data[0]
  return site ? (
    <Redirect to={routePath({ name: 'site', siteId: String(site.siteId) })} />
  ) : (
    <Redirect to={routePath({ name: 'organization', organizationId })} />
  )
}
