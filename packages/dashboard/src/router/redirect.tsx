/** Replace the current history entry with `to` once rendered (never during render). */
import { useEffect } from 'react'
import { navigate } from './navigation'

/** Renders nothing; navigates to `to` after mounting, replacing the history entry. */
export function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to])
  return null
}
