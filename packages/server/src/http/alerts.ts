/**
 * Routes: a site's alert rules (admin or owner), registered from their contracts (`@pathlight/protocol`
 * `contracts/alerts.ts`: paths, schemas, answers, access). `alertRoutes` (authenticated scope): each
 * route resolves the site before its body is parsed, so access answers (401, 403, 404) come before
 * invalid input; a rule with e-mail recipients saved while mail is not configured answers a warning.
 * `alertLinkRoutes` (public scope): the confirm and unsubscribe links of alert mails, found by the
 * recipient's token, with no sign-in; the unsubscribe endpoint also takes the one-click POST of RFC 8058.
 */
import {
  alertSubscriptionEndpoint,
  confirmAlertSubscriptionEndpoint,
  createAlertEndpoint,
  deleteAlertEndpoint,
  getAlertEndpoint,
  listAlertsEndpoint,
  unsubscribeAlertEndpoint,
  updateAlertEndpoint,
} from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import type { AlertSubscriptions } from '../alerts/alert-recipients.js'
import type { AlertRules } from '../alerts/alert-rules.js'
import { siteForAdmin } from '../auth/site-access.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { route } from './route.js'
import { wholeList } from './whole-list.js'

/** POST/GET `/api/sites/{siteId}/alerts`, GET/PATCH/DELETE `.../alerts/{id}`. */
export async function alertRoutes(
  app: FastifyInstance,
  { db, alerts }: { db: MetadataDb; alerts: AlertRules },
) {
  const adminSite = async (userId: string, siteId: string) => (await siteForAdmin(db, userId, siteId)).site

  route(app, createAlertEndpoint, {
    resolve: ({ params, caller }) => adminSite(caller.userId, params.siteId),
    handle: async ({ body, caller, resolved: site }) => {
      const warning = alerts.mailWarning(body.emailRecipients)
      return {
        success: true as const,
        data: await alerts.create(site.site_id, caller.userId, body),
        ...(warning && { warnings: [warning] }),
      }
    },
  })

  route(app, listAlertsEndpoint, async ({ params, caller }) => {
    const site = await adminSite(caller.userId, params.siteId)
    const list = wholeList(await alerts.list(site.site_id))
    return { ...list, meta: { ...list.meta, mailConfigured: alerts.mailConfigured } }
  })

  route(app, getAlertEndpoint, async ({ params, caller }) => {
    const site = await adminSite(caller.userId, params.siteId)
    return { success: true as const, data: await alerts.get(site.site_id, params.id) }
  })

  route(app, updateAlertEndpoint, {
    resolve: ({ params, caller }) => adminSite(caller.userId, params.siteId),
    handle: async ({ params, body, caller, resolved: site }) => {
      const data = await alerts.update(site.site_id, caller.userId, params.id, body)
      const warning = body.emailRecipients && alerts.mailWarning(data.emailRecipients)
      return { success: true as const, data, ...(warning && { warnings: [warning] }) }
    },
  })

  route(app, deleteAlertEndpoint, async ({ params, caller }) => {
    const site = await adminSite(caller.userId, params.siteId)
    await alerts.remove(site.site_id, caller.userId, params.id)
    return { success: true as const }
  })
}

/** GET `/api/alerts/subscriptions/{token}`, POST `.../{token}/confirm`, POST `.../{token}/unsubscribe`. */
export async function alertLinkRoutes(
  app: FastifyInstance,
  { subscriptions }: { subscriptions: AlertSubscriptions },
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

  route(app, alertSubscriptionEndpoint, ({ params }) => subscriptions.subscription(params.token))
  route(app, confirmAlertSubscriptionEndpoint, ({ params }) => subscriptions.confirm(params.token))
  route(app, unsubscribeAlertEndpoint, ({ params }) => subscriptions.unsubscribe(params.token))
}
