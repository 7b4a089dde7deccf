/**
 * Routes: A/B experiments of a site (management), registered from their contracts
 * (`@pathlight/protocol` `contracts/experiments.ts`). Authenticated scope: members read, admins and
 * owners write. Routes only translate: storage and the store's checks live in
 * `experiments/experiments.ts`; results are read through the v1 API
 * (`experiments/list-experiments-with-results.ts`). A change resolves the site and the experiment
 * before its body is parsed, so 401, 403 and 404 come before invalid input.
 */
import {
  createExperimentBody,
  createExperimentEndpoint,
  deleteExperimentEndpoint,
  getExperimentEndpoint,
  listExperimentsEndpoint,
  updateExperimentBody,
  updateExperimentEndpoint,
} from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
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
import { route } from './route.js'
import { wholeList } from './whole-list.js'

/** The request bodies, the protocol's (`experiment-input.ts`). */
export { createExperimentBody, updateExperimentBody }

/** What the experiment routes need: the metadata store, and the clock for createdAt/updatedAt. */
export interface ExperimentRouteOptions {
  db: MetadataDb
  /** The system clock when omitted. */
  clock?: Clock
}

/**
 * `POST`/`GET /api/sites/{siteId}/experiments`, `GET`/`PATCH`/`DELETE .../experiments/{experimentId}`.
 * Errors are AppErrors: 400 naming the field, 401, 403 (members writing), 404 (another
 * organization's site, another site's experiment), 409 (a key the site already uses).
 */
export async function experimentRoutes(
  app: FastifyInstance,
  { db, clock = systemClock }: ExperimentRouteOptions,
) {
  const memberSite = async (userId: string, siteId: string) => (await siteForMember(db, userId, siteId)).site
  const adminSite = async (userId: string, siteId: string) => (await siteForAdmin(db, userId, siteId)).site
  const commands = { db, clock }

  route(app, createExperimentEndpoint, {
    resolve: ({ params, caller }) => adminSite(caller.userId, params.siteId),
    handle: async ({ body, caller, resolved: site }) => ({
      success: true as const,
      data: await createExperiment(commands, site, caller.userId, body),
    }),
  })

  route(app, listExperimentsEndpoint, async ({ params, caller }) => {
    const site = await memberSite(caller.userId, params.siteId)
    return wholeList(await listExperiments(db, site.site_id))
  })

  route(app, getExperimentEndpoint, async ({ params, caller }) => {
    const site = await memberSite(caller.userId, params.siteId)
    return { success: true as const, data: await findExperiment(db, site.site_id, params.experimentId) }
  })

  route(app, updateExperimentEndpoint, {
    resolve: async ({ params, caller }) => {
      const site = await adminSite(caller.userId, params.siteId)
      return { site, current: await findExperiment(db, site.site_id, params.experimentId) }
    },
    handle: async ({ body, caller, resolved: { site, current } }) => {
      const { experiment } = await updateExperiment(commands, site, caller.userId, current, body)
      return { success: true as const, data: experiment }
    },
  })

  route(app, deleteExperimentEndpoint, async ({ params, caller }) => {
    const site = await adminSite(caller.userId, params.siteId)
    await deleteExperiment(commands, site, caller.userId, params.experimentId)
    return { success: true as const }
  })
}
