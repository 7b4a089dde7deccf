/**
 * Scheduled e-mail reports of a site: the schedules and their recipients in the metadata store
 * (migration 014), and the confirm and unsubscribe links of their mails. Sending a period's report is
 * `email-report-sender.ts`, which uses this module's types and `findEmailReport`.
 *
 * - Recipients who are members of the site's organization (their address verified) are `active` at once; other addresses are
 *   `pending` and get a mail with a link to confirm; an unsubscribed address stays unsubscribed while
 *   the list keeps it.
 * - Each report mail carries its recipient's unsubscribe page link and the `List-Unsubscribe` header
 *   on the unsubscribe endpoint (`emailReportLinks`).
 * Without mail settings (SMTP_URL) creating and changing refuse with `mailUnavailable()`.
 * Creating, changing and deleting are audited on behalf of the acting user (`email_report.created`,
 * `.updated`, `.deleted`: the report's id, frequency, zone and number of recipients, not the addresses)
 * in their transaction.
 */
import crypto from 'node:crypto'
import type {
  CreateEmailReportBody,
  EmailReport,
  EmailReportSubscription,
  UpdateEmailReportBody,
} from '@pathlight/protocol'
import type { Kysely } from 'kysely'
import { type AuditAction, recordSiteAudit } from '../audit/audit-log.js'
import { requireMailBudget } from '../mail/mail-budget.js'
import { enqueueMail } from '../mail/mail-outbox.js'
import { type MailSettings, mailBudgetOf, requireMail } from '../mail/mail-settings.js'
import { memberAddressesAmong } from '../mail/member-addresses.js'
import { renderEmailReportConfirmation } from '../mail/templates/email-report-confirmation.js'
import { notFound } from '../shared/errors.js'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import type { SiteRow } from '../sites/site.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { EmailReportRecipientTable, EmailReportTable } from '../storage/metadata/email-report-schema.js'
import type { MetadataSchema } from '../storage/metadata/schema.js'

/** What the reports need: the stores, the clock, the public URL of links, the mail settings. */
export interface EmailReportDeps {
  db: MetadataDb
  events: EventsStore
  /** The public URL of the dashboard and the API (BASE_URL), without a trailing slash. */
  baseUrl: string
  /** Undefined without SMTP_URL: writes and sends refuse. */
  mail: MailSettings | undefined
  clock?: Clock
}

const reportNotFound = () => notFound('E-mail report not found')
const subscriptionNotFound = () => notFound('Unknown or expired link')
const newToken = () => crypto.randomBytes(24).toString('base64url')

/** The links of a recipient's mails. */
export function emailReportLinks(baseUrl: string, token: string) {
  const encoded = encodeURIComponent(token)
  return {
    confirmPage: `${baseUrl}/email-reports/confirm/${encoded}`,
    unsubscribePage: `${baseUrl}/email-reports/unsubscribe/${encoded}`,
    /** The one-click target of `List-Unsubscribe` (a POST without sign-in). */
    unsubscribeEndpoint: `${baseUrl}/api/email-reports/subscriptions/${encoded}/unsubscribe`,
  }
}

/**
 * Queue the mail asking `recipient` to confirm a report of `siteDomain` (its link carries the
 * recipient's token), in the caller's transaction; it counts in the mail budget of `organizationId`
 * (the caller checks the budget first).
 */
export async function enqueueConfirmation(
  trx: Kysely<MetadataSchema>,
  recipient: { email: string; token: string },
  report: { siteDomain: string; frequency: EmailReportTable['frequency']; organizationId: string },
  { baseUrl, clock }: { baseUrl: string; clock: Clock },
): Promise<void> {
  const mail = renderEmailReportConfirmation({
    siteDomain: report.siteDomain,
    frequency: report.frequency,
    confirmUrl: emailReportLinks(baseUrl, recipient.token).confirmPage,
  })
  await enqueueMail(
    trx,
    {
      kind: 'email-report-confirmation',
      to: recipient.email,
      ...mail,
      organizationId: report.organizationId,
    },
    new Date(clock()),
  )
}

/**
 * The report `id` of site `siteId`.
 * @throws AppError 404 when the site has no such report
 */
export async function findEmailReport(db: MetadataDb, siteId: number, id: string): Promise<EmailReportTable> {
  const row = await db
    .selectFrom('email_report')
    .selectAll()
    .where('id', '=', id)
    .where('site_id', '=', siteId)
    .executeTakeFirst()
  if (!row) throw reportNotFound()
  return row
}

/**
 * The schedules of a site's reports and their recipients: list, create, update, remove, and the
 * subscription behind a mail's link (look up, confirm, unsubscribe).
 */
export function createEmailReports(deps: EmailReportDeps) {
  const { db, baseUrl } = deps
  const clock = deps.clock ?? systemClock

  const audit = async (
    trx: Kysely<MetadataSchema>,
    report: Pick<EmailReportTable, 'id' | 'site_id' | 'frequency' | 'time_zone'>,
    actorUserId: string,
    action: AuditAction,
  ) => {
    const { n } = await trx
      .selectFrom('email_report_recipient')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('report_id', '=', report.id)
      .executeTakeFirstOrThrow()
    const details = {
      emailReportId: report.id,
      frequency: report.frequency,
      timeZone: report.time_zone,
      recipients: Number(n),
    }
    await recordSiteAudit(trx, { siteId: Number(report.site_id), actorUserId, action, details }, clock)
  }

  const findReport = (siteId: number, id: string) => findEmailReport(db, siteId, id)

  /** The reports with their recipients and last period, in the order given. */
  const toReports = async (rows: EmailReportTable[]): Promise<EmailReport[]> => {
    if (rows.length === 0) return []
    const ids = rows.map((r) => r.id)
    const [recipients, sends] = await Promise.all([
      db
        .selectFrom('email_report_recipient')
        .select(['report_id', 'email', 'status'])
        .where('report_id', 'in', ids)
        .orderBy('created_at')
        .orderBy('email')
        .execute(),
      db
        .selectFrom('email_report_send')
        .select(['report_id', 'start_date', 'end_date'])
        .where('report_id', 'in', ids)
        .execute(),
    ])
    return rows.map((row) => {
      const last = sends
        .filter((s) => s.report_id === row.id)
        .sort((a, b) => b.start_date.localeCompare(a.start_date))[0]
      return {
        id: row.id,
        siteId: Number(row.site_id),
        frequency: row.frequency,
        timeZone: row.time_zone,
        recipients: recipients
          .filter((r) => r.report_id === row.id)
          .map((r) => ({ email: r.email, status: r.status })),
        lastPeriod: last ? { startDate: last.start_date, endDate: last.end_date } : null,
        createdAt: row.created_at,
      }
    })
  }

  /** The addresses among `emails` of members of the organization whose address is verified. */
  const membersAmong = (trx: Kysely<MetadataSchema>, organizationId: string, emails: readonly string[]) =>
    memberAddressesAmong(trx, organizationId, emails, { verifiedOnly: true })

  /** Insert recipients (members active, others pending with a confirmation mail queued). */
  const addRecipients = async (
    trx: Kysely<MetadataSchema>,
    site: SiteRow,
    report: Pick<EmailReportTable, 'id' | 'frequency'>,
    emails: readonly string[],
  ) => {
    const members = await membersAmong(trx, site.organization_id, emails)
    const now = isoNow(clock)
    for (const email of emails) {
      const row: EmailReportRecipientTable = {
        id: crypto.randomUUID(),
        report_id: report.id,
        email,
        status: members.has(email) ? 'active' : 'pending',
        token: newToken(),
        created_at: now,
        confirmed_at: members.has(email) ? now : null,
        unsubscribed_at: null,
      }
      await trx.insertInto('email_report_recipient').values(row).execute()
      if (row.status !== 'pending') continue
      await requireMailBudget(
        trx,
        { recipient: email, organizationId: site.organization_id },
        mailBudgetOf(requireMail(deps.mail)),
        clock(),
      )
      await enqueueConfirmation(
        trx,
        { email, token: row.token },
        { siteDomain: site.domain, frequency: report.frequency, organizationId: site.organization_id },
        {
          baseUrl,
          clock,
        },
      )
    }
  }

  const subscriptionOf = async (token: string) => {
    const row = await db
      .selectFrom('email_report_recipient')
      .innerJoin('email_report', 'email_report.id', 'email_report_recipient.report_id')
      .innerJoin('site', 'site.site_id', 'email_report.site_id')
      .select([
        'email_report_recipient.id',
        'email_report_recipient.email',
        'email_report_recipient.status',
        'email_report.frequency',
        'site.domain',
      ])
      .where('email_report_recipient.token', '=', token)
      .executeTakeFirst()
    if (!row) throw subscriptionNotFound()
    return row
  }
  const toSubscription = (
    row: Awaited<ReturnType<typeof subscriptionOf>>,
    status = row.status,
  ): EmailReportSubscription => ({
    email: row.email,
    siteDomain: row.domain,
    frequency: row.frequency,
    status,
  })

  return {
    /** Whether mail settings are given (SMTP_URL): without them nothing is sent. */
    mailConfigured: deps.mail !== undefined,

    /** The site's reports, oldest first. */
    async list(siteId: number): Promise<EmailReport[]> {
      const rows = await db
        .selectFrom('email_report')
        .selectAll()
        .where('site_id', '=', siteId)
        .orderBy('created_at')
        .orderBy('id')
        .execute()
      return toReports(rows)
    },

    /**
     * Schedule a report of `site` on behalf of `userId`; pending recipients are mailed a link to confirm.
     * @throws AppError 503 without mail settings
     */
    async create(site: SiteRow, userId: string, body: CreateEmailReportBody): Promise<EmailReport> {
      requireMail(deps.mail)
      const row: EmailReportTable = {
        id: crypto.randomUUID(),
        site_id: site.site_id,
        frequency: body.frequency,
        time_zone: body.timeZone,
        created_by: userId,
        created_at: isoNow(clock),
      }
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('email_report').values(row).execute()
        await addRecipients(trx, site, row, body.recipients)
        await audit(trx, row, userId, 'email_report.created')
      })
      return (await toReports([row]))[0] as EmailReport
    },

    /**
     * Change any subset on behalf of `userId`; `recipients` replaces the list (kept addresses keep their state).
     * @throws AppError 404 for an unknown report, 503 without mail settings
     */
    async update(
      site: SiteRow,
      userId: string,
      id: string,
      change: UpdateEmailReportBody,
    ): Promise<EmailReport> {
      const current = await findReport(site.site_id, id)
      requireMail(deps.mail)
      const next = {
        ...current,
        frequency: change.frequency ?? current.frequency,
        time_zone: change.timeZone ?? current.time_zone,
      }
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('email_report')
          .set({ frequency: next.frequency, time_zone: next.time_zone })
          .where('id', '=', id)
          .execute()
        if (change.recipients) {
          const kept = await trx
            .selectFrom('email_report_recipient')
            .select('email')
            .where('report_id', '=', id)
            .execute()
          const wanted = new Set(change.recipients)
          const removed = kept.map((r) => r.email).filter((e) => !wanted.has(e))
          if (removed.length > 0) {
            await trx
              .deleteFrom('email_report_recipient')
              .where('report_id', '=', id)
              .where('email', 'in', removed)
              .execute()
          }
          const known = new Set(kept.map((r) => r.email))
          await addRecipients(
            trx,
            site,
            next,
            change.recipients.filter((e) => !known.has(e)),
          )
        }
        await audit(trx, next, userId, 'email_report.updated')
      })
      return (await toReports([next]))[0] as EmailReport
    },

    /** Delete a report and its recipients on behalf of `userId`. @throws AppError 404 for an unknown report */
    async remove(siteId: number, userId: string, id: string): Promise<void> {
      const report = await findReport(siteId, id)
      await db.transaction().execute(async (trx) => {
        await audit(trx, report, userId, 'email_report.deleted')
        await trx.deleteFrom('email_report').where('id', '=', id).where('site_id', '=', siteId).execute()
      })
    },

    /** What a link's token names. @throws AppError 404 for an unknown token */
    async subscription(token: string): Promise<EmailReportSubscription> {
      return toSubscription(await subscriptionOf(token))
    },

    /** A pending address becomes active (an unsubscribed one stays so). @throws AppError 404 */
    async confirm(token: string): Promise<EmailReportSubscription> {
      const row = await subscriptionOf(token)
      if (row.status !== 'pending') return toSubscription(row)
      await db
        .updateTable('email_report_recipient')
        .set({ status: 'active', confirmed_at: isoNow(clock) })
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .execute()
      return toSubscription(row, 'active')
    },

    /** The address gets no more of this report. @throws AppError 404 for an unknown token */
    async unsubscribe(token: string): Promise<EmailReportSubscription> {
      const row = await subscriptionOf(token)
      if (row.status !== 'unsubscribed') {
        await db
          .updateTable('email_report_recipient')
          .set({ status: 'unsubscribed', unsubscribed_at: isoNow(clock) })
          .where('id', '=', row.id)
          .execute()
      }
      return toSubscription(row, 'unsubscribed')
    },
  }
}

/** The reports' schedules and subscriptions (`createEmailReports`). */
export type EmailReports = ReturnType<typeof createEmailReports>
