/** Routes: a site's alert rules (admin or owner). Authenticated scope. */
import { alertRule, successData, successList } from '@pathlight/protocol'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { AlertRules } from '../alerts/alert-rules.js'
import { createAlertBody, updateAlertBody } from '../alerts/alert-rules.js'
import { siteForAdmin } from '../auth/site-access.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { callerOf } from './caller-of.js'
import { deleted } from './openapi/doc-parts.js'
import { json } from './openapi/route-doc.js'
import { wholeList } from './whole-list.js'

type SiteParams = { Params: { siteId: string } }
type Params = { Params: { siteId: string; id: string } }

export async function alertRoutes(
  app: FastifyInstance,
  { db, alerts }: { db: MetadataDb; alerts: AlertRules },
) {
  const adminSite = async (request: FastifyRequest<SiteParams>) =>
    (await siteForAdmin(db, callerOf(request).userId, request.params.siteId)).site

  app.post<SiteParams>(
    '/api/sites/:siteId/alerts',
    {
      config: {
        doc: {
          summary: 'Create an alert rule',
          tag: 'Alerts',
          access: 'admin',
          body: createAlertBody,
          responses: { 201: json('Created', successData(alertRule)) },
        },
      },
    },
    async (request, reply) => {
      const site = await adminSite(request)
      return reply.code(201).send({
        success: true,
        data: await alerts.create(site.site_id, callerOf(request).userId, request.body),
      })
    },
  )
  app.get<SiteParams>(
    '/api/sites/:siteId/alerts',
    {
      config: {
        doc: {
          summary: "The site's alert rules",
          tag: 'Alerts',
          access: 'admin',
          responses: { 200: json('Oldest first', successList(alertRule)) },
        },
      },
    },
    async (request) => {
      const site = await adminSite(request)
      return wholeList(await alerts.list(site.site_id))
    },
  )
  app.get<Params>(
    '/api/sites/:siteId/alerts/:id',
    {
      config: {
        doc: {
          summary: 'An alert rule',
          tag: 'Alerts',
          access: 'admin',
          params: { id: 'The alert rule id' },
          responses: { 200: json('The rule', successData(alertRule)) },
        },
      },
    },
    async (request) => {
      const site = await adminSite(request)
      return { success: true, data: await alerts.get(site.site_id, request.params.id) }
    },
  )
  app.patch<Params>(
    '/api/sites/:siteId/alerts/:id',
    {
      config: {
        doc: {
          summary: 'Change an alert rule',
          description: 'Any subset of the fields; the rule starts over from state `ok`.',
          tag: 'Alerts',
          access: 'admin',
          params: { id: 'The alert rule id' },
          body: updateAlertBody,
          responses: { 200: json('The rule after the change', successData(alertRule)) },
        },
      },
    },
    async (request) => {
      const site = await adminSite(request)
      const data = await alerts.update(
        site.site_id,
        callerOf(request).userId,
        request.params.id,
        request.body,
      )
      return { success: true, data }
    },
  )
  app.delete<Params>(
    '/api/sites/:siteId/alerts/:id',
    {
      config: {
        doc: {
          summary: 'Delete an alert rule',
          tag: 'Alerts',
          access: 'admin',
          params: { id: 'The alert rule id' },
          responses: { 200: deleted },
        },
      },
    },
    async (request) => {
      const site = await adminSite(request)
      await alerts.remove(site.site_id, callerOf(request).userId, request.params.id)
      return { success: true }
    },
  )
}
