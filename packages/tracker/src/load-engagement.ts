import type { Client } from './create-client.js'
import { loadChunk } from './load-chunk.js'

/**
 * Load the engagement chunk (`__ENGAGEMENT_FILE__`: scroll depth and engaged time) once the config is
 * known, on every site: it is on by default and has no switch. Called only when the visitor has not
 * opted out.
 */
export function loadEngagement(client: Client, script: HTMLScriptElement): void {
  loadChunk(client, script, __ENGAGEMENT_FILE__, () => 1)
}
