/**
 * Routes: A/B experiments of a site (management). Authenticated scope: members read, admins and
 * owners write. Routes only translate: validation lives in `experiments/experiment-input.ts`, storage
 * in `experiments/experiments.ts`; results are read through the v1 API
 * (`experiments/list-experiments-with-results.ts`).
 */
import { doc, experiment, experimentStatuses, successData, successList } from '@pathlight/protocol'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { siteForAdmin, siteForMember } from '../auth/site-access.js'
import {
  EXPERIMENT_KEY_PATTERN,
  MAX_EXPERIMENT_DESCRIPTION,
  MAX_EXPERIMENT_NAME,
  MAX_VARIANT_NAME,
  MAX_VARIANTS,
  MIN_VARIANTS,
} from '../experiments/experiment-input.js'
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
import { deleted } from './openapi/doc-parts.js'
import { json } from './openapi/route-doc.js'
import { wholeList } from './whole-list.js'

const experimentFields = {
  name: z.string().min(1).max(MAX_EXPERIMENT_NAME),
  key: doc(z.string().regex(EXPERIMENT_KEY_PATTERN), 'Unique on the site; exposure events carry it'),
  description: z.string().max(MAX_EXPERIMENT_DESCRIPTION).nullable(),
  variants: doc(
    z
      .array(
        z.strictObject({ name: z.string().min(1).max(MAX_VARIANT_NAME), control: z.boolean().optional() }),
      )
      .min(MIN_VARIANTS)
      .max(MAX_VARIANTS),
    'Names unique; exactly one with `control: true`',
  ),
  goalId: doc(z.int().min(1).max(0x7fffffff), 'A goal of the same site: it measures success'),
  status: doc(z.enum(experimentStatuses), 'Informative; results are computed in every state'),
}

/** `POST /api/sites/{siteId}/experiments` (`experiments/experiment-input.ts`). */
export const createExperimentBody = z.strictObject({
  ...experimentFields,
  description: experimentFields.description.optional(),
  status: doc(experimentFields.status, 'Default draft').optional(),
})

/** `PATCH /api/sites/{siteId}/experiments/{experimentId}`: any subset; `variants` replaced whole. */
export const updateExperimentBody = z.strictObject(experimentFields).partial()

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

  app.post<SiteParams>(
    '/api/sites/:siteId/experiments',
    {
      config: {
        doc: {
          summary: 'Create an experiment',
          tag: 'Experiments',
          access: 'admin',
          body: createExperimentBody,
          responses: {
            201: json('Created', successData(experiment)),
            404: 'Not found, not in one of your organizations, or the goal is not of this site',
            409: 'The site already has an experiment with this key',
          },
        },
      },
    },
    async (request, reply) => {
      const site = await adminSite(request)
      const experiment = await createExperiment(commands, site, actor(request), request.body)
      return reply.code(201).send({ success: true, data: experiment })
    },
  )

  app.get<SiteParams>(
    '/api/sites/:siteId/experiments',
    {
      config: {
        doc: {
          summary: "The site's experiments",
          tag: 'Experiments',
          access: 'member',
          responses: { 200: json('Oldest first', successList(experiment)) },
        },
      },
    },
    async (request) => {
      const site = await memberSite(request)
      return wholeList(await listExperiments(db, site.site_id))
    },
  )

  app.get<ExperimentParams>(
    '/api/sites/:siteId/experiments/:experimentId',
    {
      config: {
        doc: {
          summary: 'An experiment',
          tag: 'Experiments',
          access: 'member',
          responses: { 200: json('The experiment', successData(experiment)) },
        },
      },
    },
    async (request) => {
      const site = await memberSite(request)
      return { success: true, data: await findExperiment(db, site.site_id, request.params.experimentId) }
    },
  )

  app.patch<ExperimentParams>(
    '/api/sites/:siteId/experiments/:experimentId',
    {
      config: {
        doc: {
          summary: 'Change an experiment',
          description: 'Any subset of the fields (`variants` replaced whole); the result is validated again.',
          tag: 'Experiments',
          access: 'admin',
          body: updateExperimentBody,
          responses: {
            200: json('The experiment after the change', successData(experiment)),
            409: 'The site already has an experiment with this key',
          },
        },
      },
    },
    async (request) => {
      const site = await adminSite(request)
      const { experiment } = await updateExperiment(
        commands,
        site,
        actor(request),
        request.params.experimentId,
        request.body,
      )
      return { success: true, data: experiment }
    },
  )

  app.delete<ExperimentParams>(
    '/api/sites/:siteId/experiments/:experimentId',
    {
      config: {
        doc: {
          summary: 'Delete an experiment',
          tag: 'Experiments',
          access: 'admin',
          responses: { 200: deleted },
        },
      },
    },
    async (request) => {
      const site = await adminSite(request)
      await deleteExperiment(commands, site, actor(request), request.params.experimentId)
      return { success: true }
    },
  )
}
