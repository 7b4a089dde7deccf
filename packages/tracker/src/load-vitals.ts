import type { Client } from './create-client.js'

/**
 * Once the config says `webVitals`, add the web-vitals chunk (`__VITALS_FILE__`, next to the script,
 * content-hashed) as a script element carrying the tag's CSP nonce. Nothing is loaded otherwise.
 */
export function loadVitals(client: Client, script: HTMLScriptElement): void {
  client.ready.then((config) => {
    if (!config.webVitals) return
    const element = document.createElement('script')
    element.src = client.url(__VITALS_FILE__)
    element.nonce = script.nonce
    document.head.appendChild(element)
  })
}
