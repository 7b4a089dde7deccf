/**
 * Who is signed in and the organizations they belong to, for every view. `SessionProvider` is rendered
 * only with a session; `useSession()` reads it.
 */
import type { Organization, Role, User } from '@pathlight/protocol'
import { createContext, type ReactNode, useCallback, useContext, useMemo } from 'react'
import { api } from './api/api'
import { useResource } from './lib/use-resource'

export interface SessionValue {
  user: User
  /** The caller's organizations, oldest first; undefined while loading. */
  organizations: Organization[] | undefined
  organizationsError: string | undefined
  reloadOrganizations(): void
  /** The caller's role in an organization, or null when unknown. */
  roleIn(organizationId: string): Role | null
  signOut(): Promise<void>
}

const SessionContext = createContext<SessionValue | null>(null)

/** Provide the session of `user` and their organizations (loaded here) to `children`. */
export function SessionProvider({
  user,
  onSignedOut,
  children,
}: {
  user: User
  onSignedOut: () => void
  children: ReactNode
}) {
  const organizations = useResource(`organizations:${user.id}`, api.organizations)
  const list = organizations.data
  const roleIn = useCallback(
    (organizationId: string) => list?.find((o) => o.id === organizationId)?.role ?? null,
    [list],
  )
  const signOut = useCallback(async () => {
    await api.signOut().catch(() => undefined)
    onSignedOut()
  }, [onSignedOut])
  const value = useMemo<SessionValue>(
    () => ({
      user,
      organizations: list,
      organizationsError: organizations.error?.message,
      reloadOrganizations: organizations.reload,
      roleIn,
      signOut,
    }),
    [user, list, organizations.error, organizations.reload, roleIn, signOut],
  )
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>
}

/** The current session. @throws outside `SessionProvider` (a programming error) */
export function useSession(): SessionValue {
  const value = useContext(SessionContext)
  if (!value) throw new Error('useSession outside SessionProvider')
  return value
}

/** True for the roles that may change things (admin, owner). */
export const isAdmin = (role: Role | null): boolean => role === 'owner' || role === 'admin'

const LAST_ORGANIZATION = 'pathlight.organization'

/** Remember the organization last looked at, to open it next time. */
export function rememberOrganization(organizationId: string): void {
  try {
    localStorage.setItem(LAST_ORGANIZATION, organizationId)
  } catch {
    // Storage may be unavailable (private mode); the first organization opens instead.
  }
}

/** The organization remembered by `rememberOrganization`, or null. */
export function lastOrganization(): string | null {
  try {
    return localStorage.getItem(LAST_ORGANIZATION)
  } catch {
    return null
  }
}

const LAST_SITE = 'pathlight.site'

/** Remember the site last looked at (its id), to open it next time. */
export function rememberSite(siteId: number): void {
  try {
    localStorage.setItem(LAST_SITE, String(siteId))
  } catch {
    // Storage may be unavailable (private mode); the organization's first site opens instead.
  }
}

/** The site remembered by `rememberSite`, or null. */
export function lastSite(): number | null {
  try {
    const id = Number(localStorage.getItem(LAST_SITE))
    return Number.isInteger(id) && id > 0 ? id : null
  } catch {
    return null
  }
}
