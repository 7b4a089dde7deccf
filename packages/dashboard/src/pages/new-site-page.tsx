/** Add a site to an organization (admin or owner), then show its tracking snippet. */
import { useState } from 'react'
import { api } from '../api/api'
import { AppShell } from '../components/app-shell'
import { Field } from '../components/field'
import { FormError } from '../components/form-error'
import { OnboardingSteps } from '../components/onboarding-steps'
import { PageHeading } from '../components/page-heading'
import { useAction } from '../lib/use-action'
import { useResource } from '../lib/use-resource'
import { navigate } from '../router/navigation'
import { routePath } from '../router/routes'

/** The new-site form of `organizationId`; opens the site (its snippet) once created. */
export function NewSitePage({ organizationId }: { organizationId: string }) {
  const sites = useResource(`sites:${organizationId}`, () => api.sites(organizationId))
  const [name, setName] = useState('')
  const [domain, setDomain] = useState('')
  const action = useAction()
  const first = sites.data?.length === 0
  return (
    <AppShell organizationId={organizationId} section="sites">
      <div className="narrow">
        {first && <OnboardingSteps current={2} />}
        <PageHeading title={first ? 'Add your first site' : 'Add a site'} />
        <p className="lead">
          Pathlight accepts events for a site from its domain and the domain’s subdomains.
        </p>
        <form
          className="card"
          onSubmit={(event) => {
            event.preventDefault()
            void action.run(async () => {
              const site = await api.createSite(organizationId, { name, domain })
              navigate(routePath({ name: 'site', siteId: String(site.siteId) }))
            })
          }}
        >
          <FormError error={action.error} />
          <Field
            label="Name"
            hint="How the site is listed here, e.g. Acme shop."
            errors={action.error?.field('name')}
          >
            {(control) => (
              <input
                {...control}
                required
                maxLength={100}
                value={name}
                onChange={(e) => setName(e.target.value)}
              />
            )}
          </Field>
          <Field
            label="Domain"
            hint="The host name without https://, e.g. example.com."
            errors={action.error?.field('domain')}
          >
            {(control) => (
              <input
                {...control}
                required
                inputMode="url"
                autoCapitalize="none"
                spellCheck={false}
                placeholder="example.com"
                value={domain}
                onChange={(e) => setDomain(e.target.value)}
              />
            )}
          </Field>
          <button type="submit" className="button button-primary" disabled={action.busy}>
            Add site
          </button>
        </form>
      </div>
    </AppShell>
  )
}
