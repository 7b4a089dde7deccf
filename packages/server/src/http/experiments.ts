/**
 * Routes: A/B experiments of a site (management). Authenticated scope: members read, admins and
 * owners write. Routes only translate: validation lives in `experiments/experiment-input.ts`, storage
 * in `experiments/experiments.ts`; results are read through the v1 API
 * (`experiments/list-experiments-with-results.ts`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { siteForAdmin, siteForMember } from '../auth/site-access.js'
import {
  createExperiment,
  deleteExperiment,
  findExperiment,
  listExperiments,
  updateExperiment,
} from '../experiments/experiments.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { callerOf } from './caller-of.js'

/** What the experiment routes need: the metadata store, and the clock for createdAt/updatedAt. */
export interface ExperimentRouteOptions {
  db: MetadataDb
  /** The system clock when omitted. */
  clock?: Clock
}

type SiteParams = { Params: { siteId: string } }
type ExperimentParams = { Params: { siteId: string; experimentId: string } }

/**
 * `POST`/`GET /api/sites/{siteId}/experiments`, `GET`/`PATCH`/`DELETE .../experiments/{experimentId}`.
 * Answers `{success: true, data: Experiment | Experiment[]}` (201 on create; `{success: true}` on
 * delete). Errors are AppErrors: 400 naming the field, 401, 403 (members writing), 404 (another
 * organization's site, another site's experiment), 409 (a key the site already uses).
 */
export async function experimentRoutes(
  app: FastifyInstance,
  { db, clock = systemClock }: ExperimentRouteOptions,
) {
  const memberSite = async (request: FastifyRequest<SiteParams>) =>
    (await siteForMember(db, callerOf(request).userId, request.params.siteId)).site
  const adminSite = async (request: FastifyRequest<SiteParams>) =>
    (await siteForAdmin(db, callerOf(request).userId, request.params.siteId)).site
  const commands = { db, clock }
  const actor = (request: FastifyRequest) => callerOf(request).userId

  app.post<SiteParams>('/api/sites/:siteId/experiments', async (request, reply) => {
    const site = await adminSite(request)
    const experiment = await createExperiment(commands, site, actor(request), request.body)
    return reply.code(201).send({ success: true, data: experiment })
  })

  app.get<SiteParams>('/api/sites/:siteId/experiments', async (request) => {
    const site = await memberSite(request)
    return { success: true, data: await listExperiments(db, site.site_id) }
  })

  app.get<ExperimentParams>('/api/sites/:siteId/experiments/:experimentId', async (request) => {
    const site = await memberSite(request)
    return { success: true, data: await findExperiment(db, site.site_id, request.params.experimentId) }
  })

  app.patch<ExperimentParams>('/api/sites/:siteId/experiments/:experimentId', async (request) => {
    const site = await adminSite(request)
    const { experiment } = await updateExperiment(
      commands,
      site,
      actor(request),
      request.params.experimentId,
      request.body,
    )
    return { success: true, data: experiment }
  })

  app.delete<ExperimentParams>('/api/sites/:siteId/experiments/:experimentId', async (request) => {
    const site = await adminSite(request)
    await deleteExperiment(commands, site, actor(request), request.params.experimentId)
    return { success: true }
  })
}
