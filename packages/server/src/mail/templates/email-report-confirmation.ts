/**
 * The mail that asks an address outside the site's organization to confirm before it gets a scheduled
 * report: who the report is of, how often, and the link to confirm (ignoring it sends nothing).
 */
import type { EmailReportFrequency } from '@pathlight/protocol'
import { renderMail } from './layout.js'

/** Render the confirmation mail. @returns the subject and both parts */
export function renderEmailReportConfirmation(input: {
  siteDomain: string
  frequency: EmailReportFrequency
  /** The page that confirms the subscription. */
  confirmUrl: string
}): { subject: string; html: string; text: string } {
  const subject = `Confirm the ${input.frequency} Pathlight report of ${input.siteDomain}`
  return {
    subject,
    ...renderMail({
      title: subject,
      paragraphs: [
        `Someone with access to ${input.siteDomain} in Pathlight asked to send this address its ${input.frequency} ` +
          'report of visitors, pageviews, top pages and sources.',
        'Confirm to start getting it. If you did not expect this, ignore this mail: nothing more is sent.',
      ],
      action: { label: 'Confirm the report', url: input.confirmUrl },
    }),
  }
}
