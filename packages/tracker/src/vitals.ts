/**
 * Entry of the web-vitals chunk (`/api/script-vitals.js`), loaded by the core script only on sites with
 * `webVitals` on. Collects LCP, CLS, INP, FCP and TTFB of this page load and hands them to the core once,
 * when the page is first hidden (tab switch, navigation, close): one `performance` event per page load.
 * Metrics that are not known by then (INP without interaction) are left out.
 */
import { type Metric, onCLS, onFCP, onINP, onLCP, onTTFB } from 'web-vitals'
import type { Vitals } from './types.js'

const vitals: Vitals = {}
let sent = false
// Every change is kept and only the last values are sent. Without reportAllChanges, an interaction still
// waiting for web-vitals' idle callback when the page hides would never be reported as INP.
for (const on of [onCLS, onFCP, onINP, onLCP, onTTFB]) {
  on(
    (metric: Metric) => {
      vitals[metric.name.toLowerCase() as keyof Vitals] =
        metric.name === 'CLS' ? Math.round(metric.value * 10_000) / 10_000 : Math.round(metric.value)
    },
    { reportAllChanges: true },
  )
}
// Registered on document after web-vitals' own capture listeners on window: they report first.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState !== 'hidden' || sent || Object.keys(vitals).length === 0) return
  sent = true
  window.pathlight?._v?.(vitals)
})
