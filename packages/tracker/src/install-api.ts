import type { Client } from './create-client.js'
import type { PathlightApi, PathlightStub, Properties } from './types.js'

/**
 * Replace the stub snippet's `window.pathlight` with the real API and replay the calls it queued, in
 * order. `event(name, properties)` sends a `custom_event`; properties other than a plain object are
 * left out (the server refuses them).
 */
export function installApi(client: Client): PathlightApi {
  const { q: queued = [] }: PathlightStub = window.pathlight || {}
  const api: PathlightApi = {
    event(name, properties) {
      client.send('custom_event', {
        event_name: String(name).slice(0, 256),
        properties:
          properties && typeof properties === 'object' && !Array.isArray(properties)
            ? JSON.stringify(properties)
            : undefined,
      })
    },
    _v: (vitals) => client.send('performance', vitals),
    _g: (fields) => client.send('engagement', fields),
    _h: (fields) => client.send('heatmap_click', fields),
  }
  window.pathlight = api
  for (const call of queued) api.event(call[0] as string, call[1] as Properties | undefined)
  return api
}
