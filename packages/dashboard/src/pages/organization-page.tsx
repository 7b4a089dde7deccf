/**
 * An organization's sites, with the way to add one, renaming it and its SSO settings (admins and
 * owners), and its own identity provider (owners).
 */
import { useEffect } from 'react'
import { api } from '../api/api'
import { AppShell } from '../components/app-shell'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { OrganizationNameForm } from '../components/organization-name-form'
import { PageHeading } from '../components/page-heading'
import { SsoProviderCard } from '../components/sso-provider-card'
import { SsoSettingsCard } from '../components/sso-settings-card'
import { useResource } from '../lib/use-resource'
import { Link } from '../router/link'
import { routePath } from '../router/routes'
import { isAdmin, rememberOrganization, useSession } from '../session'

/** The sites of `organizationId`, and "Add a site" for admins and owners. */
export function OrganizationPage({ organizationId }: { organizationId: string }) {
  const { organizations, roleIn, reloadOrganizations } = useSession()
  const sites = useResource(`sites:${organizationId}`, () => api.sites(organizationId))
  const organization = organizations?.find((o) => o.id === organizationId)
  const role = roleIn(organizationId)
  useEffect(() => {
    if (organization) rememberOrganization(organization.id)
  }, [organization])
  const addSite = routePath({ name: 'newSite', organizationId })

  return (
    <AppShell organizationId={organizationId} section="sites">
      <div className="page-head">
        <PageHeading title={organization?.name ?? 'Organization'} />
        {isAdmin(role) && (
          <Link to={addSite} className="button button-primary">
            Add a site
          </Link>
        )}
      </div>
      {role && <p className="muted">Your role: {role}</p>}
      <FormError error={sites.error} />
      {sites.loading && !sites.data && <Loading />}
      {sites.data?.length === 0 && (
        <div className="card empty">
          <h2>No sites yet</h2>
          {isAdmin(role) ? (
            <p>
              <Link to={addSite}>Add your first site</Link> to get its tracking script.
            </p>
          ) : (
            <p>An admin or owner of this organization can add sites.</p>
          )}
        </div>
      )}
      {sites.data && sites.data.length > 0 && (
        <ul className="site-list">
          {sites.data.map((site) => (
            <li key={site.siteId} className="card site-card">
              <Link to={routePath({ name: 'site', siteId: String(site.siteId) })} className="site-card-link">
                <span className="site-card-name">{site.name}</span>
                <span className="site-card-domain">{site.domain}</span>
              </Link>
              {site.public && <span className="badge">Public</span>}
            </li>
          ))}
        </ul>
      )}
      {organization && isAdmin(role) && (
        <OrganizationNameForm
          key={organization.id}
          organizationId={organization.id}
          name={organization.name}
          onSaved={reloadOrganizations}
        />
      )}
      {organization && isAdmin(role) && <SsoSettingsCard organizationId={organization.id} />}
      {organization && role === 'owner' && <SsoProviderCard organizationId={organization.id} />}
    </AppShell>
  )
}
