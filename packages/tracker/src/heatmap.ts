/**
 * Entry of the heatmap chunk (`/api/script-heatmap.js`), loaded by the core on sites with `heatmaps` on
 * and on a page opened from a heatmap viewing link. On a viewing link (`#pathlight-heatmap=<token>`) it
 * draws the heatmap over the page (`heatmap-overlay.ts`) and records nothing, so the viewer's own clicks
 * are not counted; otherwise it records clicks (`heatmap-recorder.ts`).
 */
import { showHeatmap } from './heatmap-overlay.js'
import { recordClicks } from './heatmap-recorder.js'

const api = window.pathlight
const own = document.currentScript as HTMLScriptElement | null
const token = /pathlight-heatmap=([\w.-]+)/.exec(location.hash)
if (token && own) {
  showHeatmap(new URL('heatmap-view', own.src).href, token[1] as string).catch(() => {})
} else if (api) {
  const core = document.querySelector('script[data-site-id]')
  const hashMode = !!core && core.hasAttribute('data-hash-mode')
  recordClicks(api, () => location.pathname + (hashMode ? location.hash : ''))
}
