import type { Client } from './create-client.js'
import { loadChunk } from './load-chunk.js'

/**
 * Load the heatmap chunk (`__HEATMAP_FILE__`) once the config says `heatmaps`, or when the page was opened
 * from a heatmap viewing link (`#pathlight-heatmap=<token>`: the chunk then draws the heatmap instead of
 * recording). Called only when the visitor has not opted out.
 */
export function loadHeatmap(client: Client, script: HTMLScriptElement): void {
  loadChunk(
    client,
    script,
    __HEATMAP_FILE__,
    (config) => config.heatmaps || /pathlight-heatmap=/.test(location.hash),
  )
}
