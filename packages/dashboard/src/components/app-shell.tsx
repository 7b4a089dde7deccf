/**
 * The frame of every signed-in page: a skip link, the top bar (brand, organization switcher, the
 * organization's sections, the account and sign-out) and the main region.
 */
import type { ReactNode } from 'react'
import { Link } from '../router/link'
import { routePath } from '../router/routes'
import { useSession } from '../session'
import { OrgSwitcher } from './org-switcher'

export type ShellSection = 'sites' | 'members' | 'account' | undefined

/** The top bar for `organizationId` (its sections when given; `section` marks the current one). */
export function AppShell({
  organizationId,
  section,
  children,
}: {
  organizationId?: string
  section?: ShellSection
  children: ReactNode
}) {
  const { user, signOut } = useSession()
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <div className="topbar-inner">
          <Link to="/" className="brand">
            <img src="/favicon.svg" alt="" width="22" height="22" />
            Pathlight
          </Link>
          <OrgSwitcher current={organizationId} />
          {organizationId && (
            <nav aria-label="Organization" className="topnav">
              <Link to={routePath({ name: 'organization', organizationId })} current={section === 'sites'}>
                Sites
              </Link>
              <Link to={routePath({ name: 'members', organizationId })} current={section === 'members'}>
                Members
              </Link>
            </nav>
          )}
          <div className="topbar-end">
            <Link
              to={routePath({ name: 'account' })}
              current={section === 'account'}
              className="account-link"
            >
              {user.name || user.email}
            </Link>
            <button type="button" className="button button-secondary button-small" onClick={signOut}>
              Sign out
            </button>
          </div>
        </div>
      </header>
      <main id="main" className="main" tabIndex={-1}>
        {children}
      </main>
    </>
  )
}
