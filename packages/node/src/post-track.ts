/**
 * One tracking call over HTTP: `POST {analyticsHost}/track` with the JSON body, a per-attempt timeout,
 * bounded retries (network errors, 5xx, 429) with backoff or the server's `Retry-After`, and the final
 * answer turned into a `TrackResponse` or a `PathlightError`.
 */
import { randomUUID } from 'node:crypto'
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
import type { TrackResponse } from './types.js'

/** What one attempt produced: an HTTP answer (any status), or no answer at all. */
type Attempt =
  | { answered: true; status: number; headers: Headers; text: string; body: unknown; ms: number }
  | { answered: false; error: unknown; timedOut: boolean; ms: number }

/**
 * Send one tracking body, retrying as the options allow.
 * @returns the server's body of a 2xx `{ success: true, ... }` answer (with `tracked: false` when excluded)
 * @throws PathlightError (or a subclass) for every other outcome, after the retries
 */
export async function postTrack(
  options: ResolvedOptions,
  body: Record<string, unknown>,
  log: DebugLog,
): Promise<TrackResponse> {
  // One id per event, the same on every attempt: the server stores a retried event once.
  const json = JSON.stringify({ ...body, event_id: randomUUID() })
  const maxAttempts = options.maxRetries + 1
  for (let attempts = 1; ; attempts++) {
    log(
      `POST ${options.trackUrl} (attempt ${attempts}/${maxAttempts}) ` +
        `authorization: Bearer ${REDACTED} body: ${json}`,
    )
    const result = await attemptOnce(options, json)
    if (!result.answered) {
      log(`no answer after ${result.ms} ms: ${failureText(result, options.timeoutMs)}`)
    } else {
      log(`${result.status} in ${result.ms} ms: ${snippet(result.text, 1000)}`)
      if (isSuccess(result)) return result.body
    }

    const retryable = !result.answered || isRetryableStatus(result.status)
    if (!retryable || attempts === maxAttempts) throw toError(result, attempts, options)

    const retryAfterSeconds = result.answered ? parseRetryAfter(result.headers.get('retry-after')) : undefined
    let delay: number
    if (retryAfterSeconds !== undefined) {
      if (retryAfterSeconds * 1000 > options.maxRetryAfterMs) {
        const note =
          `not retried: Retry-After ${retryAfterSeconds} s exceeds maxRetryAfterMs ` +
          `(${options.maxRetryAfterMs} ms)`
        log(note)
        throw toError(result, attempts, options, note)
      }
      delay = retryAfterSeconds * 1000
    } else {
      delay = backoffDelay(attempts, options.backoffBaseMs, options.backoffMaxMs)
    }
    log(`retrying in ${delay} ms`)
    await sleep(delay)
  }
}

async function attemptOnce(options: ResolvedOptions, json: string): Promise<Attempt> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), options.timeoutMs)
  const started = Date.now()
  try {
    const response = await fetch(options.trackUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${options.apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: json,
      // A redirect would turn the POST into a GET on most statuses: report it instead of following it.
      redirect: 'manual',
      signal: controller.signal,
    })
    const text = await response.text()
    return {
      answered: true,
      status: response.status,
      headers: response.headers,
      text,
      body: parseJson(text),
      ms: Date.now() - started,
    }
  } catch (error) {
    return { answered: false, error, timedOut: controller.signal.aborted, ms: Date.now() - started }
  } finally {
    clearTimeout(timer)
  }
}

function isSuccess(result: Attempt & { answered: true }): result is typeof result & { body: TrackResponse } {
  const body = result.body
  return (
    result.status >= 200 &&
    result.status <= 299 &&
    body !== null &&
    typeof body === 'object' &&
    (body as { success?: unknown }).success === true
  )
}

/** The error for a final attempt; `note` is appended to the message (e.g. why it was not retried). */
function toError(result: Attempt, attempts: number, options: ResolvedOptions, note?: string): PathlightError {
  const suffix = (attempts > 1 ? ` after ${attempts} attempts` : '') + (note ? `; ${note}` : '')
  if (!result.answered) {
    return new PathlightNetworkError(
      `Pathlight: network error: POST ${options.trackUrl} ${failureText(result, options.timeoutMs)}${suffix}`,
      {
        attempts,
        cause: result.error,
        timedOut: result.timedOut,
        code: result.timedOut ? undefined : codeOf(result.error),
      },
    )
  }
  const { status, body, headers } = result
  const init = {
    status,
    body: body === undefined ? result.text : body,
    attempts,
    retryAfterSeconds: parseRetryAfter(headers.get('retry-after')),
  }
  const said = serverText(result)
  if (status === 400) {
    return new PathlightInvalidPayloadError(`Pathlight: invalid payload (400 ${said})${suffix}`, init)
  }
  if (
    status === 401 ||
    (status === 403 && (said === 'Access denied' || said.startsWith("This API key's scope")))
  ) {
    return new PathlightAuthError(`Pathlight: authentication failed (${status} ${said})${suffix}`, init)
  }
  if (status === 403) {
    return new PathlightError('forbidden', `Pathlight: refused (403 ${said})${suffix}`, init)
  }
  if (status === 404) {
    const message =
      said === 'Site not found'
        ? `Pathlight: site ${options.siteId} not found (404)`
        : `Pathlight: no tracking endpoint at POST ${options.trackUrl} (404 ${said}): ` +
          'analyticsHost must be the service URL including its /api prefix'
    return new PathlightError('not_found', message + suffix, init)
  }
  if (status === 429) {
    const wait = init.retryAfterSeconds === undefined ? '' : `; retry after ${init.retryAfterSeconds} s`
    return new PathlightRateLimitError(`Pathlight: rate limited (429 ${said})${wait}${suffix}`, {
      ...init,
      rateLimit: parseRateLimit(headers),
    })
  }
  if (status >= 500 && status <= 599) {
    return new PathlightError('server', `Pathlight: server error (${status} ${said})${suffix}`, init)
  }
  const location = headers.get('location')
  const why =
    status >= 300 && status <= 399
      ? `redirected to ${location ?? '(no Location)'}: set analyticsHost to the final URL`
      : status >= 200 && status <= 299
        ? "the answer is not the tracking endpoint's JSON: check analyticsHost"
        : said
  return new PathlightError(
    'unexpected_response',
    `Pathlight: unexpected answer (${status}) from POST ${options.trackUrl}: ${why}${suffix}`,
    init,
  )
}

/** The server's `error` string, the first field error for a 400, or a snippet of a non-JSON body. */
function serverText(result: Attempt & { answered: true }): string {
  const body = result.body
  if (body !== null && typeof body === 'object') {
    const { error, details } = body as {
      error?: unknown
      details?: { fieldErrors?: unknown; formErrors?: unknown }
    }
    const parts: string[] = []
    if (details?.fieldErrors !== null && typeof details?.fieldErrors === 'object') {
      for (const [field, messages] of Object.entries(details.fieldErrors)) {
        parts.push(`${field}: ${Array.isArray(messages) ? messages.join(', ') : String(messages)}`)
      }
    }
    if (Array.isArray(details?.formErrors)) parts.push(...details.formErrors.map(String))
    if (typeof error === 'string') return parts.length > 0 ? `${error}: ${parts.join('; ')}` : error
  }
  return snippet(result.text, 200) || '(empty body)'
}

function failureText(result: Attempt & { answered: false }, timeoutMs: number): string {
  if (result.timedOut) return `timed out after ${timeoutMs} ms`
  const error = result.error
  const cause = error instanceof Error ? error.cause : undefined
  const detail =
    cause instanceof Error
      ? cause.message || codeOf(error) || cause.name
      : error instanceof Error
        ? error.message
        : String(error)
  return `failed: ${detail}`
}

/** The system error code of a fetch failure (`error.cause.code`, or the first of an AggregateError's). */
function codeOf(error: unknown): string | undefined {
  const cause: unknown = error instanceof Error ? error.cause : undefined
  if (cause === null || typeof cause !== 'object') return undefined
  const code = (cause as { code?: unknown }).code
  if (typeof code === 'string') return code
  const first: unknown = (cause as { errors?: unknown[] }).errors?.[0]
  const inner = first !== null && typeof first === 'object' ? (first as { code?: unknown }).code : undefined
  return typeof inner === 'string' ? inner : undefined
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const snippet = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max)}…` : flat
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
