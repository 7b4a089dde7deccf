/** Routes: organizations and the sites in them. Authenticated scope. */
import { organization, site, successList } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import {
  createOrganization,
  createOrganizationBody,
  isAdminRole,
  listOrganizations,
  roleIn,
} from '../organizations/organizations.js'
import { renameOrganization, renameOrganizationBody } from '../organizations/rename-organization.js'
import { forbidden, organizationNotFound } from '../shared/errors.js'
import { toSite } from '../sites/site.js'
import { createSite, createSiteBody, listSitesForUser } from '../sites/sites.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { callerOf } from './caller-of.js'
import { json } from './openapi/route-doc.js'
import { wholeList } from './whole-list.js'

export async function organizationRoutes(app: FastifyInstance, { db }: { db: MetadataDb }) {
  app.get(
    '/api/organizations',
    {
      config: {
        doc: {
          summary: 'My organizations, with my role in each',
          tag: 'Organizations',
          access: 'signedIn',
          responses: { 200: json('Oldest first', successList(organization)) },
        },
      },
    },
    async (request) => {
      return wholeList(await listOrganizations(db, callerOf(request).userId))
    },
  )

  app.post(
    '/api/organizations',
    {
      config: {
        doc: {
          summary: 'Create an organization (I become its owner)',
          tag: 'Organizations',
          access: 'signedIn',
          body: createOrganizationBody,
          responses: { 201: json('Created', organization) },
        },
      },
    },
    async (request, reply) => {
      const organization = await createOrganization(db, callerOf(request).userId, request.body)
      return reply.code(201).send(organization)
    },
  )

  app.patch<{ Params: { organizationId: string } }>(
    '/api/organizations/:organizationId',
    {
      config: {
        doc: {
          summary: 'Rename an organization',
          description: 'The slug stays as it was.',
          tag: 'Organizations',
          access: 'admin',
          body: renameOrganizationBody,
          responses: { 200: json('The organization after the change, with my role', organization) },
        },
      },
    },
    async (request) => {
      const { userId } = callerOf(request)
      const { organizationId } = request.params
      const role = await roleIn(db, userId, organizationId)
      if (role === null) throw organizationNotFound()
      if (!isAdminRole(role)) throw forbidden('Renaming an organization requires the admin or owner role')
      return renameOrganization({ db }, organizationId, { userId, role }, request.body)
    },
  )

  app.post<{ Params: { organizationId: string } }>(
    '/api/organizations/:organizationId/sites',
    {
      config: {
        doc: {
          summary: 'Create a site',
          description: 'The domain is normalised (`https://WWW.Example.com/blog` becomes `www.example.com`).',
          tag: 'Organizations',
          access: 'admin',
          body: createSiteBody,
          responses: { 201: json('Created', site) },
        },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request)
      const role = await roleIn(db, userId, request.params.organizationId)
      if (role === null) throw organizationNotFound()
      if (!isAdminRole(role)) throw forbidden('Creating a site requires the admin or owner role')
      const row = await createSite(db, request.params.organizationId, userId, request.body)
      return reply.code(201).send(toSite(row, role))
    },
  )

  app.get<{ Params: { organizationId: string } }>(
    '/api/organizations/:organizationId/sites',
    {
      config: {
        doc: {
          summary: "The organization's sites",
          tag: 'Organizations',
          access: 'member',
          responses: { 200: json('By site id', successList(site)) },
        },
      },
    },
    async (request) => {
      const { userId } = callerOf(request)
      if ((await roleIn(db, userId, request.params.organizationId)) === null) throw organizationNotFound()
      const rows = await listSitesForUser(db, userId)
      return wholeList(
        rows.filter((r) => r.organization_id === request.params.organizationId).map((r) => toSite(r, r.role)),
      )
    },
  )
}
