/**
 * Routes: a site's scheduled e-mail reports, registered from their contracts (`@pathlight/protocol`
 * `contracts/email-reports.ts`). `emailReportRoutes` (authenticated scope): list for any member of the
 * site's organization, create, change, delete and send now for admins and owners; each resolves the
 * site before its body is parsed. `emailReportLinkRoutes` (public scope): the confirm and unsubscribe
 * links of the mails, found by the recipient's token, with no sign-in; the unsubscribe endpoint also
 * takes the one-click POST of RFC 8058 (a form body, accepted and ignored). Routes only translate:
 * `email-reports/email-reports.ts` keeps the reports, `email-reports/email-report-sender.ts` sends them.
 */
import {
  confirmEmailReportEndpoint,
  createEmailReportEndpoint,
  deleteEmailReportEndpoint,
  emailReportSubscriptionEndpoint,
  listEmailReportsEndpoint,
  sendEmailReportEndpoint,
  unsubscribeEmailReportEndpoint,
  updateEmailReportEndpoint,
} from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForAdmin, siteForMember } from '../auth/site-access.js'
import type { EmailReportSender } from '../email-reports/email-report-sender.js'
import type { EmailReports } from '../email-reports/email-reports.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { route } from './route.js'
import { wholeList } from './whole-list.js'

/** POST/GET `/api/sites/{siteId}/email-reports`, PATCH/DELETE `.../email-reports/{id}`, POST `.../{id}/send`. */
export async function emailReportRoutes(
  app: FastifyInstance,
  {
    db,
    emailReports,
    emailReportSender,
  }: { db: MetadataDb; emailReports: EmailReports; emailReportSender: EmailReportSender },
) {
  const adminSite = async (userId: string, siteId: string) => (await siteForAdmin(db, userId, siteId)).site

  route(app, listEmailReportsEndpoint, async ({ params, caller }) => {
    const { site } = await siteForMember(db, caller.userId, params.siteId)
    const list = wholeList(await emailReports.list(site.site_id))
    return { ...list, meta: { ...list.meta, mailConfigured: emailReports.mailConfigured } }
  })

  route(app, createEmailReportEndpoint, {
    resolve: ({ params, caller }) => adminSite(caller.userId, params.siteId),
    handle: async ({ body, caller, resolved: site }) => ({
      success: true as const,
      data: await emailReports.create(site, caller.userId, body),
    }),
  })

  route(app, updateEmailReportEndpoint, {
    resolve: ({ params, caller }) => adminSite(caller.userId, params.siteId),
    handle: async ({ params, body, caller, resolved: site }) => ({
      success: true as const,
      data: await emailReports.update(site, caller.userId, params.id, body),
    }),
  })

  route(app, deleteEmailReportEndpoint, async ({ params, caller }) => {
    const site = await adminSite(caller.userId, params.siteId)
    await emailReports.remove(site.site_id, caller.userId, params.id)
    return { success: true as const }
  })

  route(app, sendEmailReportEndpoint, async ({ params, caller }) => {
    const site = await adminSite(caller.userId, params.siteId)
    return emailReportSender.sendNow(site, params.id)
  })
}

/** GET `/api/email-reports/subscriptions/{token}`, POST `.../{token}/confirm`, POST `.../{token}/unsubscribe`. */
export async function emailReportLinkRoutes(
  app: FastifyInstance,
  { emailReports }: { emailReports: EmailReports },
) {
  // The one-click unsubscribe of mail clients posts `List-Unsubscribe=One-Click` as a form; the
  // endpoint needs nothing from it. This plugin's scope only.
  const ignoreBody = (_request: unknown, _body: string, done: (error: null, body: undefined) => void) =>
    done(null, undefined)
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    ignoreBody,
  )
  app.addContentTypeParser('multipart/form-data', { parseAs: 'string', bodyLimit: 4096 }, ignoreBody)

  route(app, emailReportSubscriptionEndpoint, ({ params }) => emailReports.subscription(params.token))
  route(app, confirmEmailReportEndpoint, ({ params }) => emailReports.confirm(params.token))
  route(app, unsubscribeEmailReportEndpoint, ({ params }) => emailReports.unsubscribe(params.token))
}
