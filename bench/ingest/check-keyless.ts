import type { TrackRequest } from './track-bodies.js'

/**
 * Sends one keyless `POST /api/track` (the given headers, JSON, the request's `User-Agent` and
 * `X-Forwarded-For`, as `run-load.ts` sends them) and makes
 * sure the server records it: status 200 and a body with `success: true` and no `tracked: false`. A
 * keyless load that the server refused or excluded would measure the refusal path instead.
 *
 * @param headers the keyless run's headers (see `trackHeaders('keyless', ...)`).
 * @returns once the event is acknowledged (it counts as one acknowledged event).
 * @throws with the status and body of the answer otherwise, or when the request fails.
 */
export async function checkKeyless(
  baseUrl: string,
  request: TrackRequest,
  headers: Record<string, string>,
): Promise<void> {
  const response = await fetch(`${baseUrl}/api/track`, {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      'user-agent': request.userAgent,
      'x-forwarded-for': request.ip,
    },
    body: request.body,
    signal: AbortSignal.timeout(10_000),
  })
  const text = await response.text()
  if (response.status === 200 && isRecorded(text)) return
  throw new Error(
    `a keyless request was not recorded: HTTP ${response.status} ${text}\n` +
      `  headers sent: ${JSON.stringify(headers)}\n  body sent: ${request.body}`,
  )
}

function isRecorded(text: string): boolean {
  try {
    const body: unknown = JSON.parse(text)
    if (typeof body !== 'object' || body === null) return false
    return (
      (body as { success?: unknown }).success === true && (body as { tracked?: unknown }).tracked !== false
    )
  } catch {
    return false
  }
}
