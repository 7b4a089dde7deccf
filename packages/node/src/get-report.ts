/**
 * One read of the v1 API: `GET {analyticsHost}/v1/sites/{siteId}/{report}?{query}` with the API key, the
 * per-attempt timeout and the same bounded retries as tracking (network errors, 5xx, 429 with backoff or
 * the server's `Retry-After`). The answer is the server's JSON; a refusal is a `PathlightError`: 400
 * (a parameter, named in `details.fieldErrors`) `PathlightInvalidPayloadError`, 401/403
 * `PathlightAuthError`, 404 `not_found`, 429 `PathlightRateLimitError`, 5xx `server`.
 */
import { type DebugLog, REDACTED } from './debug-log.js'
import {
  PathlightAuthError,
  PathlightError,
  PathlightInvalidPayloadError,
  PathlightNetworkError,
  PathlightRateLimitError,
} from './errors.js'
import type { ResolvedOptions } from './options.js'
import { backoffDelay, isRetryableStatus, parseRateLimit, parseRetryAfter } from './retry.js'

/** Query values of a read; undefined ones are left out. */
export type ReportQuery = Record<string, string | number | boolean | undefined>

/**
 * Read `report` of the client's site.
 * @param report the path under `/v1/sites/{siteId}/`, e.g. `stats`
 * @returns the server's parsed JSON body of a 2xx answer
 * @throws PathlightError (or a subclass) for every other outcome, after the retries
 */
export async function getReport<T>(
  options: ResolvedOptions,
  report: string,
  query: ReportQuery,
  log: DebugLog,
): Promise<T> {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value))
  const text = search.toString()
  const url = `${options.apiUrl}/v1/sites/${options.siteId}/${report}${text ? `?${text}` : ''}`
  return read<T>(options, 'GET', url, undefined, log)
}

/**
 * `POST {analyticsHost}/v2/query` with `body` as JSON (the Query API), with the same key, timeout,
 * retries and errors as `getReport`.
 */
export async function postQuery<T>(options: ResolvedOptions, body: unknown, log: DebugLog): Promise<T> {
  return read<T>(options, 'POST', `${options.apiUrl}/v2/query`, JSON.stringify(body), log)
}

async function read<T>(
  options: ResolvedOptions,
  method: 'GET' | 'POST',
  url: string,
  body: string | undefined,
  log: DebugLog,
): Promise<T> {
  const maxAttempts = options.maxRetries + 1
  for (let attempts = 1; ; attempts++) {
    log(`${method} ${url} (attempt ${attempts}/${maxAttempts}) authorization: Bearer ${REDACTED}`)
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(), options.timeoutMs)
    let answer: { status: number; headers: Headers; text: string } | undefined
    let failure: unknown
    try {
      const response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          accept: 'application/json',
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body }),
        redirect: 'manual',
        signal: controller.signal,
      })
      answer = { status: response.status, headers: response.headers, text: await response.text() }
    } catch (error) {
      failure = error
    } finally {
      clearTimeout(timer)
    }
    const parsed = answer ? parseJson(answer.text) : undefined
    if (answer && answer.status >= 200 && answer.status <= 299 && parsed !== undefined) return parsed as T
    log(answer ? `${answer.status}: ${answer.text.slice(0, 1000)}` : `no answer: ${String(failure)}`)
    const retryAfterSeconds = answer ? parseRetryAfter(answer.headers.get('retry-after')) : undefined
    const retryable = !answer || isRetryableStatus(answer.status)
    const waitTooLong = retryAfterSeconds !== undefined && retryAfterSeconds * 1000 > options.maxRetryAfterMs
    if (!retryable || attempts === maxAttempts || waitTooLong) {
      if (!answer) {
        throw new PathlightNetworkError(`Pathlight: network error: ${method} ${url} (${String(failure)})`, {
          attempts,
          cause: failure,
          timedOut: controller.signal.aborted,
        })
      }
      throw toError(`${method} ${url}`, answer, parsed, attempts, retryAfterSeconds)
    }
    const delay =
      retryAfterSeconds !== undefined
        ? retryAfterSeconds * 1000
        : backoffDelay(attempts, options.backoffBaseMs, options.backoffMaxMs)
    log(`retrying in ${delay} ms`)
    await new Promise((resolve) => setTimeout(resolve, delay))
  }
}

/** The error of a final answer that is not a 2xx JSON body. */
function toError(
  /** The method and URL, e.g. `GET https://...`. */
  url: string,
  answer: { status: number; headers: Headers; text: string },
  body: unknown,
  attempts: number,
  retryAfterSeconds: number | undefined,
): PathlightError {
  const { status } = answer
  const init = { status, body: body ?? answer.text, attempts, retryAfterSeconds }
  const said =
    body !== null && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string'
      ? (body as { error: string }).error
      : answer.text.slice(0, 200) || '(empty body)'
  if (status === 400)
    return new PathlightInvalidPayloadError(`Pathlight: invalid parameter (400 ${said})`, init)
  if (status === 401 || status === 403) {
    return new PathlightAuthError(`Pathlight: authentication failed (${status} ${said})`, init)
  }
  if (status === 404)
    return new PathlightError('not_found', `Pathlight: not found: ${url} (404 ${said})`, init)
  if (status === 429) {
    return new PathlightRateLimitError(`Pathlight: rate limited (429 ${said})`, {
      ...init,
      rateLimit: parseRateLimit(answer.headers),
    })
  }
  if (status >= 500 && status <= 599)
    return new PathlightError('server', `Pathlight: server error (${status} ${said})`, init)
  return new PathlightError(
    'unexpected_response',
    `Pathlight: unexpected answer (${status}) from ${url}`,
    init,
  )
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
