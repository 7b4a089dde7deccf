/**
 * The dashboard's HTTP client: JSON over same-origin `fetch` with the session cookie. Every failure
 * becomes an `ApiError` (see api-error.ts); a 401 from outside `/api/auth/` also tells the app that the
 * session ended, so it can show the sign-in page.
 */
import { ApiError, toApiError } from './api-error'

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>

export interface Transport {
  /**
   * @param headers extra request headers (the shared view's `X-Private-Key`)
   * @throws ApiError for any failure, including the server being unreachable
   */
  request<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T>
}

/**
 * @param fetchImpl the fetch to use (tests pass a fake)
 * @param onUnauthorized called on a 401 from any route but `/api/auth/*`
 */
export function createTransport(fetchImpl: FetchLike, onUnauthorized: () => void = () => {}): Transport {
  return {
    async request<T>(
      method: string,
      path: string,
      body?: unknown,
      extraHeaders?: Record<string, string>,
    ): Promise<T> {
      const headers: Record<string, string> = { ...extraHeaders, accept: 'application/json' }
      if (body !== undefined) headers['content-type'] = 'application/json'
      let response: Response
      try {
        response = await fetchImpl(path, {
          method,
          headers,
          credentials: 'same-origin',
          body: body === undefined ? undefined : JSON.stringify(body),
        })
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') throw error
        throw toApiError(0, undefined)
      }
      const text = await response.text().catch(() => '')
      let parsed: unknown = text === '' ? undefined : text
      try {
        if (text !== '') parsed = JSON.parse(text)
      } catch {
        // Not JSON (a proxy's error page): keep the text; toApiError falls back to the status.
      }
      if (!response.ok) {
        if (response.status === 401 && !path.startsWith('/api/auth/')) onUnauthorized()
        throw toApiError(response.status, parsed)
      }
      return parsed as T
    },
  }
}

let unauthorizedHandler: () => void = () => {}

/** Set what happens when the session turns out to have ended (the app shows the sign-in page). */
export function onSessionEnded(handler: () => void): void {
  unauthorizedHandler = handler
}

/** The transport the app uses: the browser's fetch. */
export const transport = createTransport(
  (input, init) => fetch(input, init),
  () => unauthorizedHandler(),
)

export { ApiError }
