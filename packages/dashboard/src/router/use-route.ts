/** The current route, re-rendering on every navigation (push, replace, back, forward). */
import { useMemo, useSyncExternalStore } from 'react'
import { browserHistory } from './navigation'
import { parseRoute, type Route } from './routes'

/** The route of the current location; components using it re-render on navigation. */
export function useRoute(): Route {
  const store = browserHistory()
  const location = useSyncExternalStore(store.subscribe, store.snapshot)
  return useMemo(() => {
    const [pathname = '/', search = ''] = location.split('?', 2)
    return parseRoute(pathname, search)
  }, [location])
}
