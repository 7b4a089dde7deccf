import type { Draft } from '../draft.js'
import { ok, reject, type StageResult } from '../outcome.js'

/**
 * An `engagement` event belongs to a pageview of a live session: one that would open a session (a tab
 * shown again and hidden after more than 30 minutes in the background, or no pageview recorded) is not
 * recorded (200 `tracked:false`, reason `no_session`). Recorded, it would count a session without a
 * pageview, which changes sessions, bounce rate and session duration. Runs after `putSession`.
 * A `heatmap_click` likewise: a click belongs to a page being viewed.
 */
export function dropOrphanEngagement(draft: Draft): StageResult {
  const type = draft.payload.type
  return (type === 'engagement' || type === 'heatmap_click') && draft.newSession
    ? reject({ kind: 'no_session' })
    : ok
}
