/**
 * Click recording for heatmaps: each primary click becomes one `heatmap_click` event (through the
 * core's `pathlight._h`) holding the clicked element's selector path (`element-selector.ts`), the click's
 * position inside the element's box as fractions (0-1, three decimals), the viewport's width class
 * ({@link viewportClass}), and two marks:
 * - rage: the third or later click on the same element within {@link RAGE_WINDOW_MS};
 * - dead: within {@link DEAD_WINDOW_MS} after the click, no DOM change (a MutationObserver on the whole
 *   document), no URL change and no navigation (the page was not hidden or left).
 * A click is known once its window has passed; known clicks wait in a batch that is sent when the page
 * is hidden or left, or once it holds {@link BATCH_SIZE} clicks. A click still in its window when the page
 * is hidden was followed by the page going away, so it is not dead.
 * Masking as for session replays: nothing inside `[data-pathlight-block]` and no password field is
 * recorded, and no text of any element or input is read at all.
 */
import { selectorOf } from './element-selector.js'
import type { HeatmapClickFields, PathlightApi } from './types.js'

export const RAGE_WINDOW_MS = 1000
export const RAGE_CLICKS = 3
export const DEAD_WINDOW_MS = 1000
export const BATCH_SIZE = 20

/** The viewport's width class: under 768 CSS px mobile, under 1024 tablet, else desktop. */
export function viewportClass(width: number): HeatmapClickFields['viewport'] {
  return width < 768 ? 'mobile' : width < 1024 ? 'tablet' : 'desktop'
}

const PRIVATE = '[data-pathlight-block],input[type="password"]'

interface Pending {
  fields: HeatmapClickFields
  href: string
  at: number
  timer: ReturnType<typeof setTimeout>
}

/** Start recording clicks on this page; `path()` is the tracked path (hash mode included). */
export function recordClicks(api: PathlightApi, path: () => string): void {
  let lastChange = 0
  let recent: { selector: string; at: number }[] = []
  const pending: Pending[] = []
  let batch: HeatmapClickFields[] = []

  const send = () => {
    const out = batch
    batch = []
    for (const fields of out) if (api._h) api._h(fields)
  }
  const settle = (click: Pending, leaving: boolean) => {
    clearTimeout(click.timer)
    pending.splice(pending.indexOf(click), 1)
    click.fields.dead_click = !leaving && lastChange < click.at && location.href === click.href
    batch.push(click.fields)
    if (batch.length >= BATCH_SIZE) send()
  }
  const leave = () => {
    for (const click of pending.slice()) settle(click, true)
    send()
  }

  new MutationObserver(() => {
    lastChange = performance.now()
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true })

  addEventListener(
    'click',
    (event) => {
      const target = event.target
      if (event.button !== 0 || !(target instanceof Element) || target.closest(PRIVATE)) return
      const box = target.getBoundingClientRect()
      const fraction = (offset: number, size: number) =>
        size > 0 ? Math.round(Math.min(1, Math.max(0, offset / size)) * 1000) / 1000 : 0.5
      const selector = selectorOf(target)
      const at = performance.now()
      recent = recent.filter((c) => at - c.at < RAGE_WINDOW_MS)
      recent.push({ selector, at })
      const click: Pending = {
        fields: {
          selector,
          click_x: fraction(event.clientX - box.left, box.width),
          click_y: fraction(event.clientY - box.top, box.height),
          viewport: viewportClass(innerWidth),
          rage_click: recent.filter((c) => c.selector === selector).length >= RAGE_CLICKS,
          dead_click: false,
          pathname: path().slice(0, 2048),
        },
        href: location.href,
        at,
        timer: setTimeout(() => settle(click, false), DEAD_WINDOW_MS),
      }
      pending.push(click)
    },
    true,
  )
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') leave()
  })
  addEventListener('pagehide', leave)
}
