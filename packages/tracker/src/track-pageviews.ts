import type { Client } from './create-client.js'

/**
 * Send a pageview now and on every SPA navigation: `history.pushState`/`replaceState`, `popstate`,
 * and `hashchange` in hash mode, plus a back/forward-cache restore. A navigation that keeps the tracked
 * path (query-only changes, a replaceState to the same URL) is not counted again. Navigations are
 * counted one task later, so a route's new `document.title` is usually set and redirects count once.
 */
export function trackPageviews(client: Client, hashMode: boolean): void {
  let last: string | undefined
  const pageview = () => {
    const path = client.path()
    if (path === last) return
    if (last !== undefined) client.referrer = location.origin + last
    last = path
    client.send('pageview')
  }
  const later = () => {
    setTimeout(pageview)
  }
  for (const method of ['pushState', 'replaceState'] as const) {
    const original = history[method]
    history[method] = function (this: History, ...args: Parameters<History['pushState']>) {
      original.apply(this, args)
      later()
    }
  }
  addEventListener('popstate', later)
  if (hashMode) addEventListener('hashchange', later)
  addEventListener('pageshow', (event) => {
    if (event.persisted) {
      last = undefined
      pageview()
    }
  })
  if (document.prerendering) document.addEventListener('prerenderingchange', pageview, { once: true })
  else pageview()
}
