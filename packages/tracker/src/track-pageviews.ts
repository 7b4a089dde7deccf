import type { Client } from './create-client.js'

/**
 * Send a pageview now and on every SPA navigation: `history.pushState`/`replaceState`, `popstate`,
 * and `hashchange` in hash mode, plus a back/forward-cache restore. A navigation that keeps the tracked
 * path (query-only changes, a replaceState to the same URL) is not counted again. Navigations are
 * counted one task later, so a route's new `document.title` is usually set and redirects count once.
 * Before an SPA navigation's pageview, the engagement chunk (`pathlight._e`) sends the page left's.
 */
export function trackPageviews(client: Client, hashMode: boolean): void {
  let last: string | undefined
  const pageview = () => {
    const path = client.path()
    if (path === last) return
    if (last !== undefined) {
      // The engagement chunk sends the figures of the page being left first.
      const api = window.pathlight
      // biome-ignore lint/complexity/useOptionalChain: `?.` is lowered to a longer form in the ES2017 output
      if (api && api._e) api._e(last)
      client.referrer = location.origin + last
    }
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
