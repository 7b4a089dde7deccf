import type { Client } from './create-client.js'
import { loadChunk } from './load-chunk.js'
import type { PathlightApi } from './types.js'

/**
 * Once the config says `sessionReplay` with a `replaySampleRate` above 0, load the recorder
 * (`__REPLAY_FILE__`), which finds the script tag and the config at `window.pathlight._r`. Sites
 * without replay never fetch the chunk. Called only when the visitor has not opted out.
 */
export function loadReplay(client: Client, script: HTMLScriptElement, api: PathlightApi): void {
  loadChunk(client, script, __REPLAY_FILE__, (config) => {
    api._r = { script, config }
    return config.sessionReplay && (config.replaySampleRate as number) > 0
  })
}
