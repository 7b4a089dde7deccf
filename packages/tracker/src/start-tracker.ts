import { createClient } from './create-client.js'
import { installApi } from './install-api.js'
import { isOptedOut } from './is-opted-out.js'
import { loadEngagement } from './load-engagement.js'
import { loadHeatmap } from './load-heatmap.js'
import { loadReplay } from './load-replay.js'
import { loadVitals } from './load-vitals.js'
import { trackClicks } from './track-clicks.js'
import { trackErrors } from './track-errors.js'
import { trackPageviews } from './track-pageviews.js'

/**
 * Start tracking for the script tag `script`: unless the visitor opted out (then `pathlight.event` is a
 * no-op, nothing is sent and no chunk is loaded), install the API, count pageviews, watch clicks and
 * errors, load the engagement chunk, and the web-vitals, heatmap and session replay chunks on sites that use them
 * (the heatmap chunk also on a heatmap viewing link). A second copy of the
 * script on the same page does nothing.
 */
export function startTracker(script: HTMLScriptElement): void {
  // biome-ignore lint/complexity/useOptionalChain: `?.` is lowered to a longer form in the ES2017 output
  if (window.pathlight && window.pathlight._v) return
  if (isOptedOut(script)) {
    window.pathlight = { event() {}, _v() {} }
    return
  }
  const hashMode = script.hasAttribute('data-hash-mode')
  const client = createClient(script, hashMode)
  trackErrors(client)
  const api = installApi(client)
  trackClicks(client, api)
  trackPageviews(client, hashMode)
  loadVitals(client, script)
  loadEngagement(client, script)
  loadHeatmap(client, script)
  loadReplay(client, script, api)
}
