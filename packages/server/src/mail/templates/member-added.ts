/** The notice to an account added to an organization directly (without an invitation). */
import type { OutgoingMail } from '../outgoing-mail.js'
import { renderMail } from './layout.js'

/** @param url the dashboard, where the organization now appears */
export function memberAddedMail(input: {
  to: string
  name: string
  organization: string
  role: string
  addedBy: string
  url: string
}): OutgoingMail {
  const subject = `You were added to ${input.organization} on Pathlight`
  const { html, text } = renderMail({
    title: subject,
    paragraphs: [
      `Hello ${input.name},`,
      `${input.addedBy} added your account to the organization ${input.organization} with the role ${input.role}. Its sites are now in your dashboard.`,
      'You can leave the organization from its members page at any time.',
    ],
    action: { label: 'Open Pathlight', url: input.url },
  })
  return { kind: 'member-added', to: input.to, subject, html, text }
}
