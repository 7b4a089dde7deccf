/**
 * The mail that asks an address outside the site's organization to confirm before it gets the mails
 * of an alert rule: which rule of which site, and the link to confirm (ignoring it sends nothing).
 */
import { renderMail } from './layout.js'

/** Render the confirmation mail. @returns the subject and both parts */
export function renderAlertConfirmation(input: {
  ruleName: string
  siteDomain: string
  /** The page that confirms the subscription. */
  confirmUrl: string
}): { subject: string; html: string; text: string } {
  const subject = `Confirm the Pathlight alerts "${input.ruleName}" of ${input.siteDomain}`
  return {
    subject,
    ...renderMail({
      title: subject,
      paragraphs: [
        `Someone with access to ${input.siteDomain} in Pathlight asked to mail this address when the alert ` +
          `rule "${input.ruleName}" fires.`,
        'Confirm to start getting these mails. If you did not expect this, ignore this mail: nothing more is sent.',
      ],
      action: { label: 'Confirm the alerts', url: input.confirmUrl },
    }),
  }
}
