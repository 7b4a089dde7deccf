/**
 * The error catalogue. Domain code throws `AppError`; `http/error-handler.ts` turns it into
 * `{success:false, error, details?}` (`errorBody`) with its status. Anything else becomes a 500 that
 * leaks nothing.
 */
import type { ErrorResponse } from '@pathlight/protocol'

/** The body of every failure answer (the protocol's `ErrorResponse`); `details` is present only when given. */
export type ErrorBody = ErrorResponse

/** `{success:false, error, details?}`, in that key order; no `details` key when `details` is undefined. */
export const errorBody = (error: string, details?: unknown): ErrorBody =>
  details === undefined ? { success: false, error } : { success: false, error, details }

export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: unknown,
    /** Headers the answer carries (e.g. `Retry-After` of a 429). */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message)
  }
}

export const badRequest = (message: string, details?: unknown) => new AppError(400, message, details)
export const unauthorized = (message = 'Authentication required') => new AppError(401, message)
export const forbidden = (message = 'Access denied') => new AppError(403, message)
export const notFound = (message: string) => new AppError(404, message)
export const conflict = (message: string) => new AppError(409, message)
/** 429 for throttled authentication attempts, with `Retry-After` in seconds. */
export const tooManyAttempts = (retryAfterSeconds: number) =>
  new AppError(
    429,
    `Too many failed attempts: try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`,
    undefined,
    { 'retry-after': String(retryAfterSeconds) },
  )
export const siteNotFound = () => notFound('Site not found')
export const organizationNotFound = () => notFound('Organization not found')
