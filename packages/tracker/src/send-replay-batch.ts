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
 * Waits before each retry of a batch the server could not take (5xx, 429) or that never reached it,
 * in ms. A retry repeats the batch's sequence number, which the server drops when the first attempt
 * was stored after all.
 */
export const RETRY_DELAYS_MS = [1000, 4000]

/** One attempt; undefined on a network error. */
async function postOnce(url: string, body: Blob): Promise<ReplayAnswer | undefined> {
  try {
    const response = await fetch(url, { method: 'POST', body, credentials: 'omit', mode: 'cors' })
    return { status: response.status, body: await response.json().catch(() => ({})) }
  } catch {
    return undefined
  }
}

/**
 * Send a batch while the page lives on: gzip (the server tells it by its magic bytes), `fetch`, and
 * again after each of {@link RETRY_DELAYS_MS} while the answer is a 5xx, a 429 or none.
 * @returns the last answer, or undefined when the last attempt met a network error (never rejects)
 */
export async function postBatch(url: string, json: string): Promise<ReplayAnswer | undefined> {
  const body = await encode(json)
  for (let attempt = 0; ; attempt++) {
    const answer = await postOnce(url, body)
    const delay = RETRY_DELAYS_MS[attempt]
    const retriable = answer === undefined || answer.status >= 500 || answer.status === 429
    if (!retriable || delay === undefined) return answer
    await new Promise((resolve) => setTimeout(resolve, delay))
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
