import type { Client } from './create-client.js'
import type { TrackerConfig } from './types.js'

/**
 * Once the site's config is known and `wanted(config)` is truthy, add the chunk `file` (next to the
 * script, content-hashed) as a script element carrying the tag's CSP nonce. Nothing is loaded otherwise.
 */
export function loadChunk(
  client: Client,
  script: HTMLScriptElement,
  file: string,
  wanted: (config: Partial<TrackerConfig>) => unknown,
): void {
  client.ready.then((config) => {
    if (!wanted(config)) return
    const element = document.createElement('script')
    element.src = client.url(file)
    element.nonce = script.nonce
    document.head.appendChild(element)
  })
}
