import type { Draft } from '../draft.js'
import { ok, reject, type StageResult } from '../outcome.js'

/**
 * The site's feature switches for keyless (browser) requests: outbound clicks need `trackOutbound`,
 * JavaScript errors `trackErrors`, web vitals `webVitals`, Rybbit's button clicks `trackButtonClicks`,
 * copies `trackCopy`, form submits and input changes `trackFormInteractions`, heatmap clicks `heatmaps`; otherwise the event is not recorded
 * (200 `tracked:false`). The tracking script already honours them; this keeps a forged browser request
 * from adding what the site switched off. Requests with an API key are the site owner's own server
 * sending on purpose, and are recorded.
 */
export function dropDisabledTypes(draft: Draft): StageResult {
  if (draft.authenticated) return ok
  const { type } = draft.payload
  const site = draft.site
  if (type === 'outbound' && !site.trackOutbound)
    return reject({ kind: 'type_disabled', switch: 'trackOutbound' })
  if (type === 'error' && !site.trackErrors) return reject({ kind: 'type_disabled', switch: 'trackErrors' })
  if (type === 'performance' && !site.webVitals) return reject({ kind: 'type_disabled', switch: 'webVitals' })
  if (type === 'button_click' && !site.trackButtonClicks)
    return reject({ kind: 'type_disabled', switch: 'trackButtonClicks' })
  if (type === 'copy' && !site.trackCopy) return reject({ kind: 'type_disabled', switch: 'trackCopy' })
  if ((type === 'form_submit' || type === 'input_change') && !site.trackFormInteractions)
    return reject({ kind: 'type_disabled', switch: 'trackFormInteractions' })
  if (type === 'heatmap_click' && !site.heatmaps) return reject({ kind: 'type_disabled', switch: 'heatmaps' })
  return ok
}
