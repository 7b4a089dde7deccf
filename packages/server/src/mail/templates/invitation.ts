/** The invitation mail: who invites whom to which organization, with which role, and the link. */
import type { OutgoingMail } from '../outgoing-mail.js'
import { renderMail } from './layout.js'

/**
 * @param url the invitation's page (accept or decline)
 * @param expiresAt when the link stops working (ISO 8601)
 */
export function invitationMail(input: {
  to: string
  organization: string
  role: string
  invitedBy: string
  url: string
  expiresAt: string
}): OutgoingMail {
  const subject = `${input.invitedBy} invited you to ${input.organization} on Pathlight`
  const { html, text } = renderMail({
    title: `Join ${input.organization} on Pathlight`,
    paragraphs: [
      `${input.invitedBy} invited you to the organization ${input.organization} as ${article(input.role)} ${input.role}.`,
      `Open the link to accept or decline; sign up first with this address (${input.to}) if you have no account. The link works until ${input.expiresAt.slice(0, 10)}.`,
    ],
    action: { label: 'See the invitation', url: input.url },
    footer: 'If you do not know why you got this, ignore it: nothing happens unless you accept.',
  })
  return { kind: 'invitation', to: input.to, subject, html, text }
}

const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a')
