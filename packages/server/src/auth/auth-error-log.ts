/**
 * How Better Auth's errors reach the log (its `onAPIError.onError`). The expected refusal of an instance
 * without e-mail, a password reset request answered 503 "E-mail is not configured", is a warning logged
 * once per process with what the operator can do, not an error line per request; every other error is
 * logged as Better Auth logs it by default (a server error with its stack, others by their message).
 */
import { isAPIError } from 'better-auth/api'
import { mailUnavailable } from '../mail/mail-settings.js'

/** The part of Better Auth's logger this uses (its `InternalLogger`). */
export interface AuthLogger {
  warn(message: string, ...args: unknown[]): void
  error(message: string, ...args: unknown[]): void
}

/** The warning logged, once, for the first password reset request of an instance without e-mail. */
export const NO_MAIL_WARNING =
  'E-mail is not configured (SMTP_URL is unset): password reset requests and invitations answer 503. ' +
  'Set SMTP_URL to send them, or print a one-time reset link with `npx pathlight reset-password EMAIL`.'

/**
 * @returns Better Auth's `onAPIError.onError`: `(error, context)`, where `context.logger` is the
 *   instance's logger (silent when logging is off). It never throws.
 */
export function createAuthErrorLog(): (error: unknown, context: { logger: AuthLogger }) => void {
  let warnedNoMail = false
  const noMail = mailUnavailable().message
  return (error, { logger }) => {
    if (isAPIError(error) && error.status === 'SERVICE_UNAVAILABLE' && error.message === noMail) {
      if (!warnedNoMail) logger.warn(NO_MAIL_WARNING)
      warnedNoMail = true
      return
    }
    if (isAPIError(error)) {
      if (error.status === 'INTERNAL_SERVER_ERROR') logger.error(error.status, error)
      logger.error(error.message)
      return
    }
    logger.error(error instanceof Error ? error.name : '', error)
  }
}
