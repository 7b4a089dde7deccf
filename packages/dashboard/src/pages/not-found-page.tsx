/** A path that names no page, or a resource the caller cannot reach (the server never says which). */
import { AppShell } from '../components/app-shell'
import { PageHeading } from '../components/page-heading'
import { Link } from '../router/link'

/** "`what` not found", with a way back to the sites. */
export function NotFoundPage({ what = 'Page' }: { what?: string }) {
  return (
    <AppShell>
      <div className="narrow">
        <PageHeading title={`${what} not found`} />
        <p>
          It does not exist, or you are not a member of the organization it belongs to.{' '}
          <Link to="/">Go to your sites</Link>.
        </p>
      </div>
    </AppShell>
  )
}
