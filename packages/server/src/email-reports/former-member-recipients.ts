/**
 * A member who leaves or is removed from an organization no longer reads its sites' analytics, so the
 * e-mail reports of those sites stop going to them as a member. Their `active` recipient rows go back
 * to `pending`, as an address outside the organization starts, and (with mail configured) they are
 * mailed the usual confirmation link for each report: confirming keeps the report coming as an
 * outsider's, ignoring it stops it. Pending and unsubscribed rows stay as they are. A confirmation
 * mail beyond the mail budget (`mail/mail-budget.ts`) is left out: the row is pending all the same.
 */
import type { Kysely } from 'kysely'
import { checkMailBudget, DEFAULT_MAIL_BUDGET, type MailBudget } from '../mail/mail-budget.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { MetadataSchema } from '../storage/metadata/schema.js'
import { enqueueConfirmation } from './email-reports.js'

/**
 * Put `email`'s active recipient rows on the reports of `organizationId`'s sites back to pending, in
 * the caller's transaction `trx` (the one removing the member).
 * @param baseUrl the public URL for the confirmation links; without it (mail not configured) no mail
 * @param budget the mail budget (default `DEFAULT_MAIL_BUDGET`)
 * @returns how many recipient rows went back to pending
 */
export async function suspendFormerMemberRecipients(
  trx: Kysely<MetadataSchema>,
  {
    organizationId,
    email,
    baseUrl,
    budget = DEFAULT_MAIL_BUDGET,
    clock = systemClock,
  }: {
    organizationId: string
    email: string
    baseUrl?: string
    budget?: MailBudget
    clock?: Clock
  },
): Promise<number> {
  const rows = await trx
    .selectFrom('email_report_recipient')
    .innerJoin('email_report', 'email_report.id', 'email_report_recipient.report_id')
    .innerJoin('site', 'site.site_id', 'email_report.site_id')
    .select([
      'email_report_recipient.id',
      'email_report_recipient.token',
      'email_report.frequency',
      'site.domain',
    ])
    .where('site.organization_id', '=', organizationId)
    .where('email_report_recipient.email', '=', email.toLowerCase())
    .where('email_report_recipient.status', '=', 'active')
    .execute()
  for (const row of rows) {
    await trx
      .updateTable('email_report_recipient')
      .set({ status: 'pending', confirmed_at: null })
      .where('id', '=', row.id)
      .execute()
    if (baseUrl === undefined) continue
    const fits = await checkMailBudget(trx, { recipient: email, organizationId }, budget, clock())
    if (fits.ok)
      await enqueueConfirmation(
        trx,
        { email, token: row.token },
        { siteDomain: row.domain, frequency: row.frequency, organizationId },
        {
          baseUrl,
          clock,
        },
      )
  }
  return rows.length
}
