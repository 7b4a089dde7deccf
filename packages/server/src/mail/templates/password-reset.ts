/** The password reset mail: the one-time link of Better Auth's reset flow. */
import type { OutgoingMail } from '../outgoing-mail.js'
import { renderMail } from './layout.js'

/**
 * @param to the account's address
 * @param url the one-time link (valid `validMinutes`)
 */
export function passwordResetMail(input: {
  to: string
  name: string
  url: string
  validMinutes: number
}): OutgoingMail {
  const { html, text } = renderMail({
    title: 'Reset your Pathlight password',
    paragraphs: [
      `Hello ${input.name},`,
      `Someone asked to reset the password of your Pathlight account. The link below sets a new one; it works once, within ${input.validMinutes} minutes.`,
      'Setting a new password signs you out everywhere.',
    ],
    action: { label: 'Choose a new password', url: input.url },
    footer: 'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  })
  return { kind: 'password-reset', to: input.to, subject: 'Reset your Pathlight password', html, text }
}
