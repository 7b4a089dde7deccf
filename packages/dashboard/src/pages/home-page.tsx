/** `/`: opens the organization looked at last (or the first); a new user starts onboarding. */

import { ApiError } from '../api/api-error'
import { AppShell } from '../components/app-shell'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { Redirect } from '../router/redirect'
import { routePath } from '../router/routes'
import { lastOrganization, useSession } from '../session'

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
  return <Redirect to={routePath({ name: 'organization', organizationId: target?.id ?? '' })} />
}
