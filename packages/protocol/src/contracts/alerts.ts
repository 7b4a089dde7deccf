/**
 * The alert rule endpoints of a site: create, list, read, change and delete (admins and owners).
 */
import { z } from 'zod'
import { createAlertBody, updateAlertBody } from '../alert-input.js'
import { endpoint } from '../contract.js'
import { doc } from '../openapi-registry.js'
import { alertRule, successData, successList, successResponse } from '../response-schemas.js'
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
  responses: { 201: { description: 'Created', schema: successData(alertRule) } },
})

/** `GET /api/sites/:siteId/alerts`: the site's alert rules, oldest first. */
export const listAlertsEndpoint = endpoint({
  ...at.listAlerts,
  summary: "The site's alert rules",
  tag: 'Alerts',
  access: 'admin',
  params: siteParams,
  responses: { 200: { description: 'Oldest first', schema: successList(alertRule) } },
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
  description: 'Any subset of the fields; the rule starts over from state `ok`.',
  tag: 'Alerts',
  access: 'admin',
  params: alertParams,
  body: updateAlertBody,
  bodySubject: 'alert rule',
  bodyFieldsInDetails: true,
  responses: { 200: { description: 'The rule after the change', schema: successData(alertRule) } },
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

/** Every alert rule endpoint (the route/contract coverage test reads these). */
export const alertEndpoints = [
  createAlertEndpoint,
  listAlertsEndpoint,
  getAlertEndpoint,
  updateAlertEndpoint,
  deleteAlertEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    createAlert: typeof createAlertEndpoint
    listAlerts: typeof listAlertsEndpoint
    getAlert: typeof getAlertEndpoint
    updateAlert: typeof updateAlertEndpoint
    deleteAlert: typeof deleteAlertEndpoint
  }
}
