/**
 * Every failure of a tracking call rejects with a `PathlightError` (or a subclass): the HTTP status, the
 * server's body, the number of requests made, and for a rate limit the `Retry-After` in seconds. Input
 * errors found before sending (options, payload, properties) are `TypeError`s instead.
 */

/**
 * What went wrong, one value per error class or status family:
 * - `invalid_payload`: 400, the server's validator refused a field ({@link PathlightInvalidPayloadError}).
 * - `auth`: 401 unknown or expired key, 403 for a key whose scope does not allow tracking, or 403
 *   `Access denied` for a key whose owner is not a member of the site's
 *   organization ({@link PathlightAuthError}).
 * - `forbidden`: any other 403, e.g. `Site is over its monthly pageview limit`.
 * - `not_found`: 404, `Site not found`, or no tracking endpoint at that URL.
 * - `rate_limit`: 429 ({@link PathlightRateLimitError}).
 * - `server`: 5xx, after the retries.
 * - `network`: no HTTP answer (refused, reset, DNS, timeout), after the retries
 *   ({@link PathlightNetworkError}).
 * - `unexpected_response`: any other status (e.g. 413, a redirect) or a 2xx that is not the endpoint's JSON.
 */
export type PathlightErrorKind =
  | 'invalid_payload'
  | 'auth'
  | 'forbidden'
  | 'not_found'
  | 'rate_limit'
  | 'server'
  | 'network'
  | 'unexpected_response'

/** The `details` of a 400 answer: messages per payload field, and messages about the body as a whole. */
export interface PayloadErrorDetails {
  fieldErrors: Record<string, string[]>
  formErrors: string[]
}

/** The server's rate-limit headers of a 429 answer (`X-RateLimit-Limit`, `-Remaining`, `-Reset`). */
export interface RateLimitInfo {
  /** Requests allowed per window and API key. */
  limit: number
  /** Requests left in the current window. */
  remaining: number
  /** Seconds until the window resets. */
  resetSeconds: number
}

/** What every error is built from. */
export interface PathlightErrorInit {
  /** HTTP status of the last answer; absent when none arrived. */
  status?: number | undefined
  /** The last answer's body: parsed JSON when it was JSON, else its text. */
  body?: unknown
  /** Requests made for this call, retries included (1 or more). */
  attempts: number
  /** The answer's `Retry-After`, in seconds. */
  retryAfterSeconds?: number | undefined
  /** The underlying error (a fetch failure), when there is one. */
  cause?: unknown
}

/**
 * Base class of every error a tracking call rejects with. Use `kind` (or `instanceof` the subclasses) to
 * tell them apart; `status`, `body` and `serverMessage` carry the server's answer. Never contains the API
 * key.
 */
export class PathlightError extends Error {
  override name = 'PathlightError'
  /** The failure family; see {@link PathlightErrorKind}. */
  readonly kind: PathlightErrorKind
  /** HTTP status of the last answer (e.g. 400, 401, 429, 503); `undefined` when no answer arrived. */
  readonly status: number | undefined
  /**
   * The last answer's body: for the tracking endpoint `{ success: false, error, details? }` as parsed JSON;
   * the raw text when it was not JSON; `undefined` when no answer arrived.
   */
  readonly body: unknown
  /** The server's `error` string (e.g. `'Invalid API key'`), when the body had one. */
  readonly serverMessage: string | undefined
  /** Requests made for this call, retries included (1 or more). */
  readonly attempts: number
  /** The answer's `Retry-After` in seconds (429, sometimes 503); `undefined` when it sent none. */
  readonly retryAfterSeconds: number | undefined

  constructor(kind: PathlightErrorKind, message: string, init: PathlightErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause })
    this.kind = kind
    this.status = init.status
    this.body = init.body
    this.serverMessage = serverMessageOf(init.body)
    this.attempts = init.attempts
    this.retryAfterSeconds = init.retryAfterSeconds
  }
}

/** 400 `Invalid payload`: the server refused a field; `details` says which. Never retried. */
export class PathlightInvalidPayloadError extends PathlightError {
  override name = 'PathlightInvalidPayloadError'
  declare readonly kind: 'invalid_payload'
  declare readonly status: 400
  /** Messages per field (e.g. `{ user_id: ['must be at most 256 characters'] }`) and for the whole body. */
  readonly details: PayloadErrorDetails

  constructor(message: string, init: PathlightErrorInit) {
    super('invalid_payload', message, init)
    this.details = detailsOf(init.body)
  }
}

/**
 * 401 `Invalid API key` (unknown or expired), or 403 `Access denied` (the key's owner is not in the
 * site's organization) or `This API key's scope (read) does not allow sending events` (use a `track` key).
 */
export class PathlightAuthError extends PathlightError {
  override name = 'PathlightAuthError'
  declare readonly kind: 'auth'
  declare readonly status: 401 | 403

  constructor(message: string, init: PathlightErrorInit) {
    super('auth', message, init)
  }
}

/**
 * 429: more requests with this API key than the server allows per window. Thrown once the retries are
 * spent, or at once when `Retry-After` is longer than the client's `maxRetryAfterMs`.
 */
export class PathlightRateLimitError extends PathlightError {
  override name = 'PathlightRateLimitError'
  declare readonly kind: 'rate_limit'
  declare readonly status: 429
  /** The server's rate-limit headers, when it sent them. */
  readonly rateLimit: RateLimitInfo | undefined

  constructor(message: string, init: PathlightErrorInit & { rateLimit?: RateLimitInfo | undefined }) {
    super('rate_limit', message, init)
    this.rateLimit = init.rateLimit
  }
}

/** No HTTP answer (connection refused or reset, DNS failure, the per-attempt timeout), after the retries. */
export class PathlightNetworkError extends PathlightError {
  override name = 'PathlightNetworkError'
  declare readonly kind: 'network'
  declare readonly status: undefined
  /** True when the last attempt was aborted by `timeoutMs`. */
  readonly timedOut: boolean
  /** The system error code of the last failure when known, e.g. `'ECONNREFUSED'`, `'ENOTFOUND'`. */
  readonly code: string | undefined

  constructor(message: string, init: PathlightErrorInit & { timedOut: boolean; code?: string | undefined }) {
    super('network', message, init)
    this.timedOut = init.timedOut
    this.code = init.code
  }
}

function serverMessageOf(body: unknown): string | undefined {
  if (body !== null && typeof body === 'object' && 'error' in body) {
    const error = (body as { error: unknown }).error
    return typeof error === 'string' ? error : undefined
  }
  return undefined
}

function detailsOf(body: unknown): PayloadErrorDetails {
  const details =
    body !== null && typeof body === 'object' && 'details' in body
      ? (body as { details: unknown }).details
      : undefined
  const fieldErrors: Record<string, string[]> = {}
  const formErrors: string[] = []
  if (details !== null && typeof details === 'object') {
    const d = details as { fieldErrors?: unknown; formErrors?: unknown }
    if (d.fieldErrors !== null && typeof d.fieldErrors === 'object') {
      for (const [field, messages] of Object.entries(d.fieldErrors)) {
        if (Array.isArray(messages)) fieldErrors[field] = messages.map(String)
      }
    }
    if (Array.isArray(d.formErrors)) formErrors.push(...d.formErrors.map(String))
  }
  return { fieldErrors, formErrors }
}
