/**
 * Sending a scheduled e-mail report's period through the mail outbox (`mail/mail-outbox.ts`): the
 * figures of the period (`report-figures.ts`) rendered for each active recipient of the report
 * (kept by `email-reports.ts`).
 *
 * - `sendDue` (the periodic pass, `due-reports-pass.ts`) sends each report's last full period
 *   (`report-period.ts`) once: the period's row in `email_report_send` and the queued mails are written
 *   in one transaction that a second runner's insert of the same period cannot repeat. A report's first
 *   scheduled period is the first that ends after the report was created.
 * - `sendNow` sends the last full period at once, even if it was sent, and records it so the schedule
 *   does not send it again.
 * - Each mail carries its recipient's unsubscribe page link and the `List-Unsubscribe` header with the
 *   one-click `List-Unsubscribe-Post` (RFC 8058) on the unsubscribe endpoint.
 * Without mail settings (SMTP_URL) `sendNow` refuses with `mailUnavailable()` and `sendDue` sends nothing.
 */
import type { EmailReportPeriod, EmailReportSent } from '@pathlight/protocol'
import type { Kysely } from 'kysely'
import { enqueueMail } from '../mail/mail-outbox.js'
import { requireMail } from '../mail/mail-settings.js'
import { renderEmailReport } from '../mail/templates/email-report.js'
import { addDays, startOfDayIn } from '../query/zoned-time.js'
import { isoNow, systemClock } from '../shared/time.js'
import type { SiteRow } from '../sites/site.js'
import { findSite } from '../sites/sites.js'
import type { EmailReportTable } from '../storage/metadata/email-report-schema.js'
import type { MetadataSchema } from '../storage/metadata/schema.js'
import { type EmailReportDeps, emailReportLinks, findEmailReport } from './email-reports.js'
import { queryReportFigures } from './report-figures.js'
import { lastFullPeriod, periodBefore } from './report-period.js'

/** What a pass of the schedule did. */
export interface DueReportsResult {
  /** Reports whose period was sent in this pass. */
  reports: number
  /** Mails queued. */
  mails: number
}

/** The dashboard's overview of a site over a period, in the report's zone. */
export const dashboardUrlOf = (
  baseUrl: string,
  siteId: number,
  period: EmailReportPeriod,
  timeZone: string,
) =>
  `${baseUrl}/sites/${siteId}?${new URLSearchParams({ period: 'custom', from: period.startDate, to: period.endDate, tz: timeZone })}`

/** Sends the reports' periods: at once (`sendNow`) or as the schedule's pass (`sendDue`). */
export function createEmailReportSender(deps: EmailReportDeps) {
  const { db, baseUrl } = deps
  const clock = deps.clock ?? systemClock

  /**
   * Queue the report of `period` for every active recipient, in `trx`.
   * @returns the addresses queued
   */
  const queueReport = async (
    trx: Kysely<MetadataSchema>,
    site: SiteRow,
    report: EmailReportTable,
    period: EmailReportPeriod,
    figures: Awaited<ReturnType<typeof queryReportFigures>>,
  ) => {
    const recipients = await trx
      .selectFrom('email_report_recipient')
      .select(['email', 'token'])
      .where('report_id', '=', report.id)
      .where('status', '=', 'active')
      .orderBy('email')
      .execute()
    const dashboardUrl = dashboardUrlOf(baseUrl, site.site_id, period, report.time_zone)
    for (const recipient of recipients) {
      const links = emailReportLinks(baseUrl, recipient.token)
      const mail = renderEmailReport({
        siteDomain: site.domain,
        frequency: report.frequency,
        figures,
        dashboardUrl,
        unsubscribeUrl: links.unsubscribePage,
      })
      await enqueueMail(
        trx,
        {
          kind: 'email-report',
          to: recipient.email,
          ...mail,
          headers: {
            'List-Unsubscribe': `<${links.unsubscribeEndpoint}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          },
        },
        new Date(clock()),
      )
    }
    return recipients.map((r) => r.email)
  }

  /**
   * Send `report`'s last full period if it is due and not yet recorded.
   * @returns the mails queued, or null when nothing was due (or another runner recorded it first)
   */
  const sendDueReport = async (report: EmailReportTable, now: number): Promise<number | null> => {
    const period = lastFullPeriod(report.frequency, report.time_zone, now)
    const periodEnd = startOfDayIn(addDays(period.endDate, 1), report.time_zone)
    if (periodEnd <= Date.parse(report.created_at)) return null
    const done = await db
      .selectFrom('email_report_send')
      .select('report_id')
      .where('report_id', '=', report.id)
      .where('start_date', '=', period.startDate)
      .executeTakeFirst()
    if (done) return null
    const site = await findSite(db, Number(report.site_id))
    if (!site) return null
    const figures = await queryReportFigures(
      deps,
      site.site_id,
      period,
      periodBefore(report.frequency, period),
      report.time_zone,
    )
    return db.transaction().execute(async (trx) => {
      const claimed = await trx
        .insertInto('email_report_send')
        .values({ report_id: report.id, ...toSendRow(period), sent_at: isoNow(clock), recipients: 0 })
        .onConflict((oc) => oc.columns(['report_id', 'start_date']).doNothing())
        .executeTakeFirst()
      // Another runner recorded this period first: it sends it.
      if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return null
      const sent = await queueReport(trx, site, report, period, figures)
      await trx
        .updateTable('email_report_send')
        .set({ recipients: sent.length })
        .where('report_id', '=', report.id)
        .where('start_date', '=', period.startDate)
        .execute()
      return sent.length
    })
  }
  return {
    /**
     * Send the last full period now to every active recipient, and record it as sent.
     * @throws AppError 404 for an unknown report, 503 without mail settings
     */
    async sendNow(site: SiteRow, id: string): Promise<EmailReportSent> {
      const report = await findEmailReport(db, site.site_id, id)
      requireMail(deps.mail)
      const period = lastFullPeriod(report.frequency, report.time_zone, clock())
      const figures = await queryReportFigures(
        deps,
        site.site_id,
        period,
        periodBefore(report.frequency, period),
        report.time_zone,
      )
      const sent = await db.transaction().execute(async (trx) => {
        const sent = await queueReport(trx, site, report, period, figures)
        await trx
          .insertInto('email_report_send')
          .values({ report_id: id, ...toSendRow(period), sent_at: isoNow(clock), recipients: sent.length })
          .onConflict((oc) => oc.columns(['report_id', 'start_date']).doNothing())
          .execute()
        return sent
      })
      return { period, sent }
    },

    /**
     * The schedule's pass: each report whose last full period is due and not yet sent is sent.
     * Without mail settings nothing is sent.
     * @throws AggregateError of the reports that failed, after every other report was sent
     */
    async sendDue(): Promise<DueReportsResult> {
      const result: DueReportsResult = { reports: 0, mails: 0 }
      if (!deps.mail) return result
      const now = clock()
      const reports = await db.selectFrom('email_report').selectAll().orderBy('created_at').execute()
      // One report that fails (its figures, its zone) does not hold up the others; the next pass
      // tries it again, since its period was not recorded.
      const failures: unknown[] = []
      for (const report of reports) {
        try {
          const queued = await sendDueReport(report, now)
          if (queued === null) continue
          result.reports++
          result.mails += queued
        } catch (error) {
          failures.push(error)
        }
      }
      if (failures.length > 0) {
        throw new AggregateError(
          failures,
          `${failures.length} of ${reports.length} e-mail report(s) failed (${result.reports} sent); ` +
            'the next pass tries them again',
        )
      }
      return result
    },
  }
}

const toSendRow = (period: EmailReportPeriod) => ({ start_date: period.startDate, end_date: period.endDate })

/** The sending of the reports (`createEmailReportSender`). */
export type EmailReportSender = ReturnType<typeof createEmailReportSender>
