/**
 * The A/B experiment endpoints of a site: members read, admins and owners create, change and delete.
 * Results are read through the v1 API.
 */
import { z } from 'zod'
import { endpoint } from '../contract.js'
import { createExperimentBody, updateExperimentBody } from '../experiment-input.js'
import { experiment } from '../experiment-schemas.js'
import { successData, successList, successResponse } from '../response-schemas.js'
import * as at from './addresses.js'

/** `:siteId`, as text: an id that names no site is a 404 of the access check, not a 400. */
const siteParams = z.object({ siteId: z.string() })
/** `:siteId` and `:experimentId`, as text (a malformed experiment id is the experiment's 404). */
const experimentParams = z.object({ siteId: z.string(), experimentId: z.string() })

const keyTaken = 'The site already has an experiment with this key'

/** `POST /api/sites/:siteId/experiments`: create an experiment; answers it. */
export const createExperimentEndpoint = endpoint({
  ...at.createExperiment,
  summary: 'Create an experiment',
  tag: 'Experiments',
  access: 'admin',
  params: siteParams,
  body: createExperimentBody,
  bodySubject: 'experiment',
  responses: {
    201: { description: 'Created', schema: successData(experiment) },
    404: 'Not found, not in one of your organizations, or the goal is not of this site',
    409: keyTaken,
  },
})

/** `GET /api/sites/:siteId/experiments`: the site's experiments, oldest first. */
export const listExperimentsEndpoint = endpoint({
  ...at.listExperiments,
  summary: "The site's experiments",
  tag: 'Experiments',
  access: 'member',
  params: siteParams,
  responses: { 200: { description: 'Oldest first', schema: successList(experiment) } },
})

/** `GET /api/sites/:siteId/experiments/:experimentId`: one experiment. */
export const getExperimentEndpoint = endpoint({
  ...at.getExperiment,
  summary: 'An experiment',
  tag: 'Experiments',
  access: 'member',
  params: experimentParams,
  responses: { 200: { description: 'The experiment', schema: successData(experiment) } },
})

/** `PATCH /api/sites/:siteId/experiments/:experimentId`: change any subset; answers it after. */
export const updateExperimentEndpoint = endpoint({
  ...at.updateExperiment,
  summary: 'Change an experiment',
  description: 'Any subset of the fields (`variants` replaced whole); the result is validated again.',
  tag: 'Experiments',
  access: 'admin',
  params: experimentParams,
  body: updateExperimentBody,
  bodySubject: 'experiment',
  responses: {
    200: { description: 'The experiment after the change', schema: successData(experiment) },
    409: keyTaken,
  },
})

/** `DELETE /api/sites/:siteId/experiments/:experimentId`: delete an experiment, irreversibly. */
export const deleteExperimentEndpoint = endpoint({
  ...at.deleteExperiment,
  summary: 'Delete an experiment',
  tag: 'Experiments',
  access: 'admin',
  params: experimentParams,
  responses: { 200: { description: 'Deleted', schema: successResponse } },
})

/** Every experiment endpoint (the route/contract coverage test reads these). */
export const experimentEndpoints = [
  createExperimentEndpoint,
  listExperimentsEndpoint,
  getExperimentEndpoint,
  updateExperimentEndpoint,
  deleteExperimentEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    createExperiment: typeof createExperimentEndpoint
    listExperiments: typeof listExperimentsEndpoint
    getExperiment: typeof getExperimentEndpoint
    updateExperiment: typeof updateExperimentEndpoint
    deleteExperiment: typeof deleteExperimentEndpoint
  }
}
