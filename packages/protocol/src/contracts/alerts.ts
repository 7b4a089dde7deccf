/**
 * The alert rule endpoints of a site: create, list, read, change and delete (admins and owners); and
 * the confirm and unsubscribe links of alert mails (public, by the recipient's token).
 */
import { z } from 'zod'
import { createAlertBody, updateAlertBody } from '../alert-input.js'
import { alertList, alertSaved, alertSubscription } from '../alert-schemas.js'
import { endpoint } from '../contract.js'
import { doc } from '../openapi-registry.js'
import { alertRule, successData, successResponse } from '../response-schemas.js'
import * as at from './addresses.js'

/** `:siteId`, as text: an id that names no site is a 404 of the access check, not a 400. */
const siteParams = z.object({ siteId: z.string() })
/** `:siteId` and `:id`, the alert rule's id (an unknown one is a 404). */
export const alertParams = z.object({ siteId: z.string(), id: doc(z.string(), 'The alert rule id') })

/** `POST /api/sites/:siteId/alerts`: create an alert rule; answers it. */
export const createAlertEndpoint = endpoint({
  ...at.createAlert,
  summary: 'Create an alert rule',
  tag: 'Alerts',
  access: 'admin',
  params: siteParams,
  body: createAlertBody,
  bodySubject: 'alert rule',
  bodyFieldsInDetails: true,
  description:
    'Members among `emailRecipients` get its mails at once; other addresses are mailed a link to ' +
    'confirm first. Without e-mail configured (SMTP_URL) the rule is saved all the same, with a ' +
    '`warnings` entry: it calls its webhooks and mails nobody.',
  responses: {
    201: { description: 'Created', schema: alertSaved },
    429: 'Too many confirmation mails to one of the addresses, or from this organization (`MAIL_BUDGET_*`)',
  },
})

/** `GET /api/sites/:siteId/alerts`: the site's alert rules, oldest first. */
export const listAlertsEndpoint = endpoint({
  ...at.listAlerts,
  summary: "The site's alert rules",
  tag: 'Alerts',
  access: 'admin',
  params: siteParams,
  responses: { 200: { description: 'Oldest first', schema: alertList } },
})

/** `GET /api/sites/:siteId/alerts/:id`: one alert rule. */
export const getAlertEndpoint = endpoint({
  ...at.getAlert,
  summary: 'An alert rule',
  tag: 'Alerts',
  access: 'admin',
  params: alertParams,
  responses: { 200: { description: 'The rule', schema: successData(alertRule) } },
})

/** `PATCH /api/sites/:siteId/alerts/:id`: change any subset of a rule; answers the rule after it. */
export const updateAlertEndpoint = endpoint({
  ...at.updateAlert,
  summary: 'Change an alert rule',
  description:
    'Any subset of the fields; the rule starts over from state `ok`. Addresses kept in ' +
    '`emailRecipients` keep their state (a pending one is not mailed again); new ones are treated as ' +
    'on creation, with the same `warnings` without e-mail configured.',
  tag: 'Alerts',
  access: 'admin',
  params: alertParams,
  body: updateAlertBody,
  bodySubject: 'alert rule',
  bodyFieldsInDetails: true,
  responses: {
    200: { description: 'The rule after the change', schema: alertSaved },
    429: 'Too many confirmation mails to one of the addresses, or from this organization (`MAIL_BUDGET_*`)',
  },
})

/** `DELETE /api/sites/:siteId/alerts/:id`: delete an alert rule, irreversibly. */
export const deleteAlertEndpoint = endpoint({
  ...at.deleteAlert,
  summary: 'Delete an alert rule',
  tag: 'Alerts',
  access: 'admin',
  params: alertParams,
  responses: { 200: { description: 'Deleted', schema: successResponse } },
})

/** `:token`: the recipient's token of an alert mail's link. */
const alertTokenParams = z.object({ token: doc(z.string(), "The token of the mail's link") })

/** `GET /api/alerts/subscriptions/:token`: what a link's token names. */
export const alertSubscriptionEndpoint = endpoint({
  ...at.alertSubscription,
  summary: "The alert subscription of a mail's link",
  tag: 'Alerts',
  access: 'public',
  params: alertTokenParams,
  responses: { 200: { description: 'The subscription', schema: alertSubscription }, 404: 'Unknown token' },
})

/** `POST /api/alerts/subscriptions/:token/confirm`: the address agrees to get the rule's mails. */
export const confirmAlertSubscriptionEndpoint = endpoint({
  ...at.confirmAlertSubscription,
  summary: 'Confirm an alert subscription',
  description: 'A pending address becomes active; an unsubscribed one stays unsubscribed.',
  tag: 'Alerts',
  access: 'public',
  params: alertTokenParams,
  responses: {
    200: { description: 'The subscription after it', schema: alertSubscription },
    404: 'Unknown token',
  },
})

/** `POST /api/alerts/subscriptions/:token/unsubscribe`: no more mails of this rule to this address. */
export const unsubscribeAlertEndpoint = endpoint({
  ...at.unsubscribeAlert,
  summary: 'Unsubscribe from an alert rule',
  description:
    "The address gets no more mails of this rule. Also the target of the mail's one-click " +
    '`List-Unsubscribe-Post` (a form body `List-Unsubscribe=One-Click`, which is accepted and ignored).',
  tag: 'Alerts',
  access: 'public',
  params: alertTokenParams,
  responses: {
    200: { description: 'The subscription after it', schema: alertSubscription },
    404: 'Unknown token',
  },
})

/** Every alert rule endpoint (the route/contract coverage test reads these). */
export const alertEndpoints = [
  createAlertEndpoint,
  listAlertsEndpoint,
  getAlertEndpoint,
  updateAlertEndpoint,
  deleteAlertEndpoint,
  alertSubscriptionEndpoint,
  confirmAlertSubscriptionEndpoint,
  unsubscribeAlertEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    createAlert: typeof createAlertEndpoint
    listAlerts: typeof listAlertsEndpoint
    getAlert: typeof getAlertEndpoint
    updateAlert: typeof updateAlertEndpoint
    deleteAlert: typeof deleteAlertEndpoint
    alertSubscription: typeof alertSubscriptionEndpoint
    confirmAlertSubscription: typeof confirmAlertSubscriptionEndpoint
    unsubscribeAlert: typeof unsubscribeAlertEndpoint
  }
}
