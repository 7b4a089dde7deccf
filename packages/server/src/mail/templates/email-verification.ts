/** The mail that verifies an account's address: the link of Better Auth's e-mail verification. */
import type { OutgoingMail } from '../outgoing-mail.js'
import { renderMail } from './layout.js'

/** The subject of every verification mail. */
export const EMAIL_VERIFICATION_SUBJECT = 'Verify your Pathlight address'

/**
 * @param to the account's address
 * @param url the verification link (valid `validHours`)
 */
export function emailVerificationMail(input: {
  to: string
  name: string
  url: string
  validHours: number
}): OutgoingMail {
  const { html, text } = renderMail({
    title: EMAIL_VERIFICATION_SUBJECT,
    paragraphs: [
      `Hello ${input.name},`,
      `A Pathlight account was made with this address. Open the link below within ${input.validHours} hours to confirm it is yours: only then do the e-mail reports, alerts and notices of the organizations you join come to it.`,
    ],
    action: { label: 'Verify this address', url: input.url },
    footer:
      'If you did not make this account, ignore this e-mail: nothing is sent to this address until it is verified.',
  })
  return { kind: 'email-verification', to: input.to, subject: EMAIL_VERIFICATION_SUBJECT, html, text }
}
