/**
 * The answers of the e-mail report routes (`contracts/email-reports.ts`), as zod schemas registered as
 * OpenAPI components, with their inferred types.
 */
import { z } from 'zod'
import { emailReportFrequencies, emailReportRecipientStatuses } from './enums.js'
import { component, doc } from './openapi-registry.js'
import { count, day, timestamp } from './schema-fields.js'

/** A period of a report: its first and last day (both included) in the report's time zone. */
export const emailReportPeriod = component(
  'EmailReportPeriod',
  z.object({ startDate: day, endDate: day }),
  'A period of a report: first and last day, both included, in the report time zone.',
)

/** One recipient of a report and its state. */
export const emailReportRecipient = z.object({
  email: z.string(),
  status: doc(
    z.enum(emailReportRecipientStatuses),
    '`pending`: waits for the address to confirm from its link; `active`: gets the reports; ' +
      '`unsubscribed`: stopped them from its link',
  ),
})

export const emailReport = component(
  'EmailReport',
  z.object({
    id: z.string(),
    siteId: z.int().min(1),
    frequency: doc(
      z.enum(emailReportFrequencies),
      '`weekly`: the last full week, Monday to Sunday; `monthly`: the last full calendar month',
    ),
    timeZone: doc(z.string(), 'IANA zone name: the calendar its weeks and months are cut in'),
    recipients: z.array(emailReportRecipient),
    lastPeriod: doc(emailReportPeriod, 'The last period sent, null before the first').nullable(),
    createdAt: timestamp(),
  }),
  'A scheduled e-mail report of a site: its figures for each past week or month, mailed to its recipients.',
)

/**
 * The answer of `GET /api/sites/{siteId}/email-reports`: the whole list, and whether this instance can
 * send mail at all (the dashboard says so instead of offering a form that would be refused).
 */
export const emailReportList = z.object({
  success: z.literal(true),
  data: z.array(emailReport),
  meta: z.object({
    total: count('Reports in the list'),
    mailConfigured: doc(
      z.boolean(),
      'Whether SMTP_URL is set: without it no report is sent and none can be scheduled',
    ),
  }),
})

/** The answer of `POST .../email-reports/{id}/send`. */
export const emailReportSent = component(
  'EmailReportSent',
  z.object({
    period: emailReportPeriod,
    sent: doc(z.array(z.string()), 'The addresses the report was queued for (active recipients)'),
  }),
  'A report sent now: the period it covers and the addresses it went to.',
)

/** What the token of a confirm or unsubscribe link names, for the page the link opens. */
export const emailReportSubscription = component(
  'EmailReportSubscription',
  z.object({
    email: z.string(),
    siteDomain: z.string(),
    frequency: z.enum(emailReportFrequencies),
    status: z.enum(emailReportRecipientStatuses),
  }),
  'A recipient of a report, as its link names it.',
)

export type EmailReport = z.infer<typeof emailReport>
export type EmailReportPeriod = z.infer<typeof emailReportPeriod>
export type EmailReportSent = z.infer<typeof emailReportSent>
export type EmailReportSubscription = z.infer<typeof emailReportSubscription>
