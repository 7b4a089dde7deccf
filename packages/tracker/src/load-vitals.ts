import type { Client } from './create-client.js'
import { loadChunk } from './load-chunk.js'

/** Once the config says `webVitals`, load the web-vitals chunk (`__VITALS_FILE__`). */
export function loadVitals(client: Client, script: HTMLScriptElement): void {
  loadChunk(client, script, __VITALS_FILE__, (config) => config.webVitals)
}
