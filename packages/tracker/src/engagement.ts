/**
 * Entry of the engagement chunk (`/api/script-engagement.js`), loaded by the core script on every site
 * once the visitor has not opted out. For the current pageview it keeps:
 * - the scroll depth: the deepest the viewport's bottom has reached, in percent of the document's
 *   height (100 for a page that fits the viewport), measured on load, on every scroll and resize, and
 *   when the page is hidden;
 * - the engaged time: milliseconds the page was visible and active. A stretch starts on load (when
 *   visible) or on input (pointer, key, wheel, touch, scroll) and ends when the tab is hidden or after
 *   {@link IDLE_MS} without input.
 * It hands them to the core (`pathlight._g`, one `engagement` event) when the page is hidden or left
 * and, through `pathlight._e`, on an SPA navigation (for the page being left). An event carries the
 * depth so far and the time since the previous event; nothing is sent when neither changed.
 */
import type { EngagementFields } from './types.js'

/** Input-free time after which the visitor counts as idle and the engaged time stops, ms. */
export const IDLE_MS = 30_000

const api = window.pathlight
let depth = 0
let sentDepth = 0
let engaged = 0
let since: number | undefined
let idle: ReturnType<typeof setTimeout> | undefined
/** Set from a history change until its pageview: a scroll then is the next route's, not this page's. */
let moving = false
/** Set on `pagehide` until a `pageshow` from the back-forward cache: the page is being left. */
let gone = false

const visible = () => document.visibilityState === 'visible'

function measure(): void {
  if (moving) return
  const root = document.documentElement
  const height = Math.max(root.scrollHeight, document.body ? document.body.scrollHeight : 0)
  const bottom = (window.scrollY || root.scrollTop) + window.innerHeight
  const reached = height > 0 ? Math.min(100, Math.round((bottom / height) * 100)) : 100
  if (reached > depth) depth = reached
}

function pause(): void {
  if (since !== undefined) engaged += performance.now() - since
  since = undefined
}

function active(): void {
  if (gone || !visible()) return
  if (since === undefined) since = performance.now()
  clearTimeout(idle)
  idle = setTimeout(pause, IDLE_MS)
}

/** Send what changed since the last event; `pathname` names the page left on an SPA navigation. */
function flush(pathname?: string): void {
  const running = since !== undefined
  pause()
  const time = Math.round(engaged)
  // biome-ignore lint/complexity/useOptionalChain: `?.` is lowered to a longer form in the ES2017 output
  if (api && api._g && (depth > sentDepth || time > 0)) {
    const fields: EngagementFields = { scroll_depth: depth, engagement_time: time }
    if (pathname !== undefined) fields.pathname = pathname
    api._g(fields)
    sentDepth = depth
    engaged -= time
  }
  if (running) active()
}

if (api) {
  api._e = (pathname) => {
    flush(pathname)
    depth = sentDepth = 0
    // The new route renders after the navigation; measure once it has.
    setTimeout(measure, 100)
  }
  // Wrapped after the core: the core's pageview (and `_e`) is queued before `moving` is cleared.
  for (const method of ['pushState', 'replaceState'] as const) {
    const original = history[method]
    history[method] = function (this: History, ...args: Parameters<History['pushState']>) {
      moving = true
      original.apply(this, args)
      setTimeout(() => {
        moving = false
      })
    }
  }
  for (const type of ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart']) {
    addEventListener(type, active, { capture: true, passive: true })
  }
  addEventListener(
    'scroll',
    () => {
      measure()
      active()
    },
    { capture: true, passive: true },
  )
  addEventListener('resize', measure, { passive: true })
  document.addEventListener('visibilitychange', () => {
    if (visible()) return active()
    measure()
    flush()
  })
  // Chromium fires `pagehide` while the page is still visible, then `visibilitychange`: without `gone`
  // the flush would restart the clock and the hidden page would send a second event of a few ms.
  addEventListener('pagehide', () => {
    gone = true
    measure()
    flush()
  })
  addEventListener('pageshow', (event) => {
    if (!event.persisted) return
    gone = false
    active()
  })
  measure()
  active()
}
