/**
 * Errors of the Pathlight API as the dashboard shows them. The server answers
 * `{success:false, error, details?:{fieldErrors, formErrors}}`; Better Auth (`/api/auth/*`) answers
 * `{code, message}`; proxies and crashes answer anything. `toApiError` turns each into one `ApiError`
 * whose `message` is fit to show as is and whose `fieldErrors` name the form fields they belong to.
 */

export type FieldErrors = Record<string, string[]>

export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    message: string,
    readonly fieldErrors: FieldErrors = {},
    readonly formErrors: string[] = [],
  ) {
    super(message)
    this.name = 'ApiError'
  }

  /** The messages for one field, or undefined when it has none. */
  field(name: string): string[] | undefined {
    const messages = this.fieldErrors[name]
    return messages && messages.length > 0 ? messages : undefined
  }
}

/** Better Auth error codes that belong to one form field. */
const authCodeFields: Record<string, string> = {
  INVALID_EMAIL: 'email',
  USER_ALREADY_EXISTS: 'email',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'email',
  PASSWORD_TOO_SHORT: 'password',
  PASSWORD_TOO_LONG: 'password',
  INVALID_PASSWORD: 'password',
  INVALID_NAME: 'name',
  INVALID_CODE: 'code',
  INVALID_BACKUP_CODE: 'code',
}

/** Better Auth's terse messages, said the way the rest of the dashboard says things. */
const authCodeMessages: Record<string, string> = {
  USER_ALREADY_EXISTS: 'An account with this email already exists; sign in instead',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'An account with this email already exists; sign in instead',
  PASSWORD_TOO_SHORT: 'Use at least 8 characters',
  PASSWORD_TOO_LONG: 'Use at most 256 characters',
  INVALID_CODE: 'That code is not valid; enter the one your authenticator app shows now',
  INVALID_BACKUP_CODE: 'That backup code is not valid, or it was used already',
  INVALID_TWO_FACTOR_COOKIE: 'This sign-in has expired; enter your email and password again',
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: 'Too many wrong codes; enter your email and password again',
}

/** What to say when a response carries no message of its own. */
export function statusMessage(status: number): string {
  if (status === 0) return 'Cannot reach the Pathlight server; check your connection and try again'
  if (status === 401) return 'Your session has ended; sign in again'
  if (status === 403) return 'You do not have permission to do this'
  if (status === 404) return 'Not found'
  if (status === 409) return 'This conflicts with the current state; reload and try again'
  if (status === 413) return 'That is too large for the server'
  if (status === 429) return 'Too many requests; wait a moment and try again'
  if (status >= 500) return `The server had a problem (HTTP ${status}); try again shortly`
  return `The request failed (HTTP ${status})`
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : []

function toFieldErrors(value: unknown): FieldErrors {
  if (!isRecord(value)) return {}
  const out: FieldErrors = {}
  for (const [key, messages] of Object.entries(value)) {
    const list = strings(messages)
    if (list.length > 0) out[key] = list
  }
  return out
}

/**
 * Map a failed response to an `ApiError`.
 * @param status the HTTP status (0 for a network failure)
 * @param body the parsed JSON body, or the raw text when it was not JSON, or undefined
 */
export function toApiError(status: number, body: unknown): ApiError {
  if (isRecord(body)) {
    if (typeof body.error === 'string' && body.error !== '') {
      const details = isRecord(body.details) ? body.details : {}
      return new ApiError(status, body.error, toFieldErrors(details.fieldErrors), strings(details.formErrors))
    }
    if (typeof body.message === 'string' && body.message !== '') {
      const code = typeof body.code === 'string' ? body.code : ''
      const message = authCodeMessages[code] ?? body.message
      const field = authCodeFields[code]
      return new ApiError(status, message, field ? { [field]: [message] } : {})
    }
  }
  return new ApiError(status, statusMessage(status))
}

/** Any thrown value as an `ApiError` (a bug's message is kept, prefixed so users can report it). */
export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error
  const message = error instanceof Error ? error.message : String(error)
  return new ApiError(-1, `Something went wrong in the dashboard: ${message}`)
}
