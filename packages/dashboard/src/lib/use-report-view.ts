/**
 * `useReportView()`: the report view of the current URL (`report-view.ts`), re-rendering on every
 * navigation, and `setView` to change it: a new history entry (so Back undoes a filter), or a
 * replaced one for adjustments not worth an entry.
 */
import { useCallback, useMemo, useSyncExternalStore } from 'react'
import { browserHistory, navigate } from '../router/navigation'
import { parseReportView, type ReportView, replaceView } from './report-view'

export interface ReportViewState {
  view: ReportView
  setView(next: ReportView, options?: { replace?: boolean }): void
}

/** The view in the location's query string. */
export function useReportView(): ReportViewState {
  const store = browserHistory()
  const location = useSyncExternalStore(store.subscribe, store.snapshot)
  const [pathname = '/', search = ''] = location.split('?', 2)
  const view = useMemo(() => parseReportView(search), [search])
  const setView = useCallback(
    (next: ReportView, options?: { replace?: boolean }) => {
      // Route-specific parameters (an error's message) stay; the view's are rewritten, once each.
      const query = replaceView(search, next)
      navigate(query ? `${pathname}?${query}` : pathname, options)
    },
    [pathname, search],
  )
  return { view, setView }
}
