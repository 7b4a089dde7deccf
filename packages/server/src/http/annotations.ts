/**
 * Routes: a site's annotations, registered from their contracts (`@pathlight/protocol`
 * `contracts/annotations.ts`: paths, schemas, answers, access). Analytics scope: the list takes any
 * reader of the site; writes need a caller with the admin or owner role. The v1 list (API scope) takes
 * a key of a member of the site's organization. Each route resolves the site before its query or body
 * is parsed, so access answers (401, 403, 404) come before invalid input. Routes only translate:
 * `annotations/annotations.ts` keeps the annotations.
 */
import {
  createAnnotationEndpoint,
  deleteAnnotationEndpoint,
  listAnnotationsEndpoint,
  updateAnnotationEndpoint,
  v1ListAnnotationsEndpoint,
} from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import {
  createAnnotation,
  deleteAnnotation,
  listAnnotations,
  updateAnnotation,
} from '../annotations/annotations.js'
import { siteForAdmin, siteForMember, siteForReader } from '../auth/site-access.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { route } from './route.js'
import { wholeList } from './whole-list.js'

/** What the annotation routes need: the metadata store, and the clock (default system). */
export interface AnnotationRouteOptions {
  db: MetadataDb
  clock?: Clock
}

/** The days of a list query as `listAnnotations` takes them. */
const daysOf = (query: { start_date?: string; end_date?: string }) => ({
  startDate: query.start_date,
  endDate: query.end_date,
})

/** GET/POST `/api/sites/{siteId}/annotations`, PATCH/DELETE `.../annotations/{id}`. */
export async function annotationRoutes(
  app: FastifyInstance,
  { db, clock = systemClock }: AnnotationRouteOptions,
) {
  const commands = { db, clock }

  route(app, listAnnotationsEndpoint, {
    resolve: ({ params, reader }) => siteForReader(db, reader, params.siteId),
    handle: async ({ query, resolved: { site } }) =>
      wholeList(await listAnnotations(db, site.site_id, daysOf(query))),
  })

  route(app, createAnnotationEndpoint, {
    resolve: ({ params, caller }) => siteForAdmin(db, caller.userId, params.siteId),
    handle: async ({ body, caller, resolved: { site } }) => ({
      success: true as const,
      data: await createAnnotation(commands, site, caller.userId, body),
    }),
  })

  route(app, updateAnnotationEndpoint, {
    resolve: ({ params, caller }) => siteForAdmin(db, caller.userId, params.siteId),
    handle: async ({ params, body, caller, resolved: { site } }) => ({
      success: true as const,
      data: await updateAnnotation(commands, site, caller.userId, params.id, body),
    }),
  })

  route(app, deleteAnnotationEndpoint, async ({ params, caller }) => {
    const { site } = await siteForAdmin(db, caller.userId, params.siteId)
    await deleteAnnotation(commands, site, caller.userId, params.id)
    return { success: true as const }
  })
}

/** GET `/api/v1/sites/{siteId}/annotations` (the v1 scope: API keys only). */
export async function v1AnnotationRoutes(app: FastifyInstance, { db }: AnnotationRouteOptions) {
  route(app, v1ListAnnotationsEndpoint, {
    resolve: ({ params, caller }) => siteForMember(db, caller.userId, params.siteId),
    handle: async ({ query, resolved: { site } }) =>
      wholeList(await listAnnotations(db, site.site_id, daysOf(query))),
  })
}
