/**
 * The bodies that create and change a scheduled e-mail report, and the e-mail address lists they (and
 * alert rules) share, with the messages a 400 names the field by.
 */
import { z } from 'zod'
import { emailReportFrequencies } from './enums.js'
import { doc } from './openapi-registry.js'

/** Most addresses one report (or one alert rule) mails. */
export const MAX_EMAIL_RECIPIENTS = 20

/** One address, trimmed and lower-cased: `someone@example.com`, at most 254 characters. */
export const emailAddress = doc(
  z
    .string({ error: 'must be an e-mail address' })
    .trim()
    .toLowerCase()
    .max(254, 'must be at most 254 characters')
    .pipe(z.email({ error: 'must be an e-mail address such as someone@example.com' })),
  { format: 'email', description: 'An e-mail address (compared in lower case)' },
)

const addressList = z.array(emailAddress, { error: 'must be a list of e-mail addresses' })
const distinct = (list: readonly string[]) => new Set(list).size === list.length

/** Up to `MAX_EMAIL_RECIPIENTS` distinct addresses (duplicates after lower-casing are refused). */
export const emailRecipientList = addressList
  .max(MAX_EMAIL_RECIPIENTS, `must be at most ${MAX_EMAIL_RECIPIENTS} addresses`)
  .refine(distinct, 'must not name an address twice')

/**
 * An IANA zone name the runtime knows (case-insensitive), as the caller named it: a link such as
 * `Asia/Kolkata` stays so (ICU would name it `Asia/Calcutta`); a name that differs from the canonical
 * one only in case becomes the canonical one (`europe/berlin` -> `Europe/Berlin`).
 */
export const timeZoneName = z
  .string({ error: 'must be an IANA time zone name such as Europe/Berlin' })
  .max(64, 'must be an IANA time zone name such as Europe/Berlin')
  .transform((name, ctx) => {
    try {
      const canonical = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone
      return canonical.toLowerCase() === name.toLowerCase() ? canonical : name
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an IANA time zone name such as Europe/Berlin' })
      return z.NEVER
    }
  })

const fields = {
  recipients: addressList
    .min(1, 'must name at least one address')
    .max(MAX_EMAIL_RECIPIENTS, `must be at most ${MAX_EMAIL_RECIPIENTS} addresses`)
    .refine(distinct, 'must not name an address twice'),
  frequency: z.enum(emailReportFrequencies, { error: 'must be weekly or monthly' }),
  timeZone: timeZoneName,
}

/** A new report: recipients and frequency; `timeZone` (the calendar of its weeks and months) defaults to UTC. */
export const createEmailReportBody = z
  .object({ ...fields, timeZone: fields.timeZone.default('UTC') })
  .strict()

/** Any subset of a report's fields; `recipients` replaces the list whole. Unknown fields are refused. */
export const updateEmailReportBody = z.object(fields).partial().strict()

/** A parsed new report. */
export type CreateEmailReportBody = z.output<typeof createEmailReportBody>
/** A parsed change of a report. */
export type UpdateEmailReportBody = z.output<typeof updateEmailReportBody>
