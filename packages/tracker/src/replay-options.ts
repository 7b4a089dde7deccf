import { createReplayStore } from './replay-state.js'
import type { RecorderOptions } from './start-recorder.js'
import type { ReplayHandoff } from './types.js'

/** The default longest recording of a session, in minutes (`data-replay-max-minutes` overrides it). */
export const DEFAULT_MAX_MINUTES = 30

/**
 * The recorder's options from the core's hand-over: `site_id` from `data-site-id`, the endpoint next to
 * the script (`.../api/replay`), `trackUrlParams` from the config, `hashMode` from `data-hash-mode`,
 * and the longest recording from
 * `data-replay-max-minutes` (a positive number of minutes; anything else means the default 30).
 */
export function replayOptionsOf({ script, config }: ReplayHandoff): RecorderOptions {
  const siteId = script.getAttribute('data-site-id') || ''
  const minutes = Number(script.getAttribute('data-replay-max-minutes'))
  return {
    siteId,
    url: new URL('replay', script.src).href,
    trackUrlParams: !!config.trackUrlParams,
    hashMode: script.hasAttribute('data-hash-mode'),
    maxMs: (minutes > 0 ? minutes : DEFAULT_MAX_MINUTES) * 60_000,
    store: createReplayStore(siteId),
  }
}
