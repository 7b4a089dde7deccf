/**
 * Navigation over the History API: `navigate()` pushes (or replaces) an entry and notifies
 * subscribers; `popstate` (back, forward) does too. `createHistoryStore` takes the window-like object
 * it drives, so the logic runs in tests without a DOM; the app uses `browserHistory`.
 */

export interface HistoryTarget {
  location: { pathname: string; search: string; hash: string }
  history: {
    pushState(data: unknown, unused: string, url: string): void
    replaceState(data: unknown, unused: string, url: string): void
  }
  addEventListener(type: 'popstate', listener: () => void): void
  removeEventListener(type: 'popstate', listener: () => void): void
  scrollTo?(x: number, y: number): void
}

export interface HistoryStore {
  /** Subscribe to location changes (for `useSyncExternalStore`); returns the unsubscribe function. */
  subscribe(listener: () => void): () => void
  /** The current path and query, e.g. '/sites/3/webhooks/w1?page=2'. */
  snapshot(): string
  /** Go to a local path. Does nothing when it is already the current one (unless replacing). */
  navigate(to: string, options?: { replace?: boolean }): void
}

/** A history store over `target` (the browser's window, or a fake in tests). */
export function createHistoryStore(target: HistoryTarget): HistoryStore {
  const listeners = new Set<() => void>()
  const notify = () => {
    for (const listener of listeners) listener()
  }
  const snapshot = () => `${target.location.pathname}${target.location.search}`
  return {
    subscribe(listener) {
      if (listeners.size === 0) target.addEventListener('popstate', notify)
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0) target.removeEventListener('popstate', notify)
      }
    },
    snapshot,
    navigate(to, options = {}) {
      if (options.replace) target.history.replaceState(null, '', to)
      else if (to === snapshot()) return
      else {
        target.history.pushState(null, '', to)
        target.scrollTo?.(0, 0)
      }
      notify()
    },
  }
}

/** What a click on a link looks like (the fields of a MouseEvent that matter). */
export interface ClickLike {
  button: number
  metaKey: boolean
  ctrlKey: boolean
  shiftKey: boolean
  altKey: boolean
  defaultPrevented: boolean
}

/**
 * True when a click on a local link should become an in-app navigation: a plain left click (no
 * modifier: those open new tabs or windows), not already handled, on a link that targets this window
 * and is not a download.
 */
export function isPlainClick(event: ClickLike, link: { target?: string; download?: boolean }): boolean {
  if (event.defaultPrevented || event.button !== 0) return false
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false
  return (!link.target || link.target === '_self') && !link.download
}

let browser: HistoryStore | undefined

/** The app's history store, over `window` (created on first use). */
export function browserHistory(): HistoryStore {
  browser ??= createHistoryStore(window)
  return browser
}

/** Navigate the app to a local path. */
export function navigate(to: string, options?: { replace?: boolean }): void {
  browserHistory().navigate(to, options)
}
