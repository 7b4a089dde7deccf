/**
 * `useMailConfigured()`: whether this instance sends e-mail (`GET /api/mail/status`, public), for the
 * forms that would mail (forgot password, invitations) to say so before they are submitted.
 */
import * as endpoints from '@pathlight/protocol/addresses'
import { client } from '../api/contract-client'
import { useResource } from './use-resource'

/** What the server says when SMTP_URL is unset (its 503 says the same). */
export const MAIL_NOT_CONFIGURED = 'E-mail is not configured: set SMTP_URL'

/**
 * @returns true or false once known; undefined while loading or when the status could not be read (the
 *   forms then behave as before, and the server's refusal says why)
 */
export function useMailConfigured(): boolean | undefined {
  const status = useResource('mail-status', () =>
    client(endpoints.mailStatus, {}).then((answer) => answer.data.configured),
  )
  return status.data
}
