/**
 * Transport of the recorder to `POST /api/replay`, always as CORS-simple requests (`text/plain`, no
 * credentials), so no preflight is needed and the server's answer is readable (`access-control-allow-
 * origin: *`).
 */

/** The server's answer to a batch: its status, and its JSON body (`{}` when unreadable). */
export interface ReplayAnswer {
  status: number
  body: { recorded?: boolean; reason?: string }
}

/** `text` gzipped with `CompressionStream` where the browser has it, else as is. */
async function encode(text: string): Promise<Blob> {
  if (typeof CompressionStream !== 'function') return new Blob([text], { type: 'text/plain' })
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'))
  return new Blob([await new Response(stream).arrayBuffer()], { type: 'text/plain' })
}

/**
 * Send a batch while the page lives on: gzip (the server tells it by its magic bytes), `fetch`.
 * @returns the answer, or undefined on a network error (never rejects)
 */
export async function postBatch(url: string, json: string): Promise<ReplayAnswer | undefined> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      body: await encode(json),
      credentials: 'omit',
      mode: 'cors',
    })
    return { status: response.status, body: await response.json().catch(() => ({})) }
  } catch {
    return undefined
  }
}

/**
 * Send a batch as the page goes away: `navigator.sendBeacon` with the JSON (synchronous, so not
 * compressed; `text/plain`), which the browser delivers after the page is gone. A body over the
 * beacon limit, or one the browser refuses (its queue full), is tried with a plain `fetch`, which may not
 * finish if the page is unloading. The answer is not read.
 */
export function beaconBatch(url: string, json: string, tooLarge: boolean): void {
  if (!tooLarge && navigator.sendBeacon(url, json)) return
  fetch(url, { method: 'POST', body: json, credentials: 'omit', mode: 'no-cors' }).catch(() => {})
}
