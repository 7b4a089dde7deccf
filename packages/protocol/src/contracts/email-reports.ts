/**
 * The e-mail report endpoints of a site: list (members), create, change, delete and send now (admins
 * and owners); and the public endpoints of the links in the mails, found by the recipient's token:
 * what it names, confirm, unsubscribe (also the one-click `List-Unsubscribe-Post` of RFC 8058).
 */
import { z } from 'zod'
import { endpoint } from '../contract.js'
import { createEmailReportBody, updateEmailReportBody } from '../email-report-input.js'
import {
  emailReport,
  emailReportList,
  emailReportSent,
  emailReportSubscription,
} from '../email-report-schemas.js'
import { doc } from '../openapi-registry.js'
import { successData, successResponse } from '../response-schemas.js'
import * as at from './addresses.js'

/** `:siteId`, as text: an id that names no site is a 404 of the access check, not a 400. */
const siteParams = z.object({ siteId: z.string() })
/** `:siteId` and `:id`, the report's id (an unknown one is a 404). */
export const emailReportParams = z.object({ siteId: z.string(), id: doc(z.string(), 'The e-mail report id') })
/** `:token`, the recipient's token from a link (an unknown one is a 404). */
export const emailReportTokenParams = z.object({ token: doc(z.string(), "The token of the mail's link") })

const noMail = 'E-mail is not configured on this instance (SMTP_URL is unset): nothing was sent or stored'

/** `POST /api/sites/:siteId/email-reports`: schedule a report; answers it. */
export const createEmailReportEndpoint = endpoint({
  ...at.createEmailReport,
  summary: 'Schedule an e-mail report',
  description:
    'Members of the site organization get the reports at once; other addresses get a mail with a ' +
    'link to confirm first (`pending` until then).',
  tag: 'E-mail reports',
  access: 'admin',
  params: siteParams,
  body: createEmailReportBody,
  bodySubject: 'e-mail report',
  responses: { 201: { description: 'Scheduled', schema: successData(emailReport) }, 503: noMail },
})

/** `GET /api/sites/:siteId/email-reports`: the site's reports, oldest first. */
export const listEmailReportsEndpoint = endpoint({
  ...at.listEmailReports,
  summary: "The site's e-mail reports",
  description: 'Any member of the site organization may read them (they name the recipients).',
  tag: 'E-mail reports',
  access: 'member',
  params: siteParams,
  responses: { 200: { description: 'Oldest first', schema: emailReportList } },
})

/** `PATCH /api/sites/:siteId/email-reports/:id`: change any subset; answers the report after it. */
export const updateEmailReportEndpoint = endpoint({
  ...at.updateEmailReport,
  summary: 'Change an e-mail report',
  description:
    '`recipients` replaces the list: addresses kept keep their state (an unsubscribed one stays so), ' +
    'new ones outside the organization are asked to confirm.',
  tag: 'E-mail reports',
  access: 'admin',
  params: emailReportParams,
  body: updateEmailReportBody,
  bodySubject: 'e-mail report',
  responses: {
    200: { description: 'The report after the change', schema: successData(emailReport) },
    503: noMail,
  },
})

/** `DELETE /api/sites/:siteId/email-reports/:id`: stop and delete a report. */
export const deleteEmailReportEndpoint = endpoint({
  ...at.deleteEmailReport,
  summary: 'Delete an e-mail report',
  tag: 'E-mail reports',
  access: 'admin',
  params: emailReportParams,
  responses: { 200: { description: 'Deleted', schema: successResponse } },
})

/** `POST /api/sites/:siteId/email-reports/:id/send`: send the last full period now. */
export const sendEmailReportEndpoint = endpoint({
  ...at.sendEmailReport,
  summary: 'Send an e-mail report now',
  description:
    'Queues the last full week or month for every active recipient, even if it was sent before; ' +
    'the schedule then does not send that period again.',
  tag: 'E-mail reports',
  access: 'admin',
  params: emailReportParams,
  responses: { 200: { description: 'Queued', schema: emailReportSent }, 503: noMail },
})

/** `GET /api/email-reports/subscriptions/:token`: what a link's token names. */
export const emailReportSubscriptionEndpoint = endpoint({
  ...at.emailReportSubscription,
  summary: "The report subscription of a mail's link",
  tag: 'E-mail reports',
  access: 'public',
  params: emailReportTokenParams,
  responses: {
    200: { description: 'The subscription', schema: emailReportSubscription },
    404: 'Unknown token',
  },
})

/** `POST /api/email-reports/subscriptions/:token/confirm`: the address agrees to get the reports. */
export const confirmEmailReportEndpoint = endpoint({
  ...at.confirmEmailReport,
  summary: 'Confirm a report subscription',
  description: 'A pending address becomes active; an unsubscribed one stays unsubscribed.',
  tag: 'E-mail reports',
  access: 'public',
  params: emailReportTokenParams,
  responses: {
    200: { description: 'The subscription after it', schema: emailReportSubscription },
    404: 'Unknown token',
  },
})

/** `POST /api/email-reports/subscriptions/:token/unsubscribe`: no more reports to this address. */
export const unsubscribeEmailReportEndpoint = endpoint({
  ...at.unsubscribeEmailReport,
  summary: 'Unsubscribe from a report',
  description:
    "The address gets no more of this report. Also the target of the mail's one-click " +
    '`List-Unsubscribe-Post` (a form body `List-Unsubscribe=One-Click`, which is accepted and ignored).',
  tag: 'E-mail reports',
  access: 'public',
  params: emailReportTokenParams,
  responses: {
    200: { description: 'The subscription after it', schema: emailReportSubscription },
    404: 'Unknown token',
  },
})

/** Every e-mail report endpoint (the route/contract coverage test reads these). */
export const emailReportEndpoints = [
  createEmailReportEndpoint,
  listEmailReportsEndpoint,
  updateEmailReportEndpoint,
  deleteEmailReportEndpoint,
  sendEmailReportEndpoint,
  emailReportSubscriptionEndpoint,
  confirmEmailReportEndpoint,
  unsubscribeEmailReportEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    createEmailReport: typeof createEmailReportEndpoint
    listEmailReports: typeof listEmailReportsEndpoint
    updateEmailReport: typeof updateEmailReportEndpoint
    deleteEmailReport: typeof deleteEmailReportEndpoint
    sendEmailReport: typeof sendEmailReportEndpoint
    emailReportSubscription: typeof emailReportSubscriptionEndpoint
    confirmEmailReport: typeof confirmEmailReportEndpoint
    unsubscribeEmailReport: typeof unsubscribeEmailReportEndpoint
  }
}
