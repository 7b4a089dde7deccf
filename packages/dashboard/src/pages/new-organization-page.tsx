/** Create an organization (the caller becomes its owner), then add its first site. */
import { useState } from 'react'
import { api } from '../api/api'
import { AppShell } from '../components/app-shell'
import { Field } from '../components/field'
import { FormError } from '../components/form-error'
import { OnboardingSteps } from '../components/onboarding-steps'
import { PageHeading } from '../components/page-heading'
import { useAction } from '../lib/use-action'
import { navigate } from '../router/navigation'
import { routePath } from '../router/routes'
import { rememberOrganization, useSession } from '../session'

/** The new-organization form (the first step of onboarding when the caller has none). */
export function NewOrganizationPage() {
  const { organizations, reloadOrganizations } = useSession()
  const [name, setName] = useState('')
  const action = useAction()
  const first = organizations?.length === 0
  return (
    <AppShell>
      <div className="narrow">
        {first && <OnboardingSteps current={1} />}
        <PageHeading title={first ? 'Welcome to Pathlight' : 'New organization'} />
        <p className="lead">
          {first
            ? 'Start with an organization: it owns your sites, and you can invite your team to it.'
            : 'An organization owns sites and has its own members.'}
        </p>
        <form
          className="card"
          onSubmit={(event) => {
            event.preventDefault()
            void action.run(async () => {
              const organization = await api.createOrganization(name)
              rememberOrganization(organization.id)
              reloadOrganizations()
              navigate(routePath({ name: 'newSite', organizationId: organization.id }))
            })
          }}
        >
          <FormError error={action.error} />
          <Field
            label="Organization name"
            hint="Your company or team, e.g. Acme."
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
          <button type="submit" className="button button-primary" disabled={action.busy}>
            Create organization
          </button>
        </form>
      </div>
    </AppShell>
  )
}
