/**
 * `POST /api/sites/:siteId/reports`: several reports of a site in one request, each part parsed as its
 * GET route parses its query (`report-batch.ts` derives the parts from the report registry). A module
 * of its own: the registry names the GET contracts of `reports.ts`, and this one is built from it.
 */
import { analyticsQuery } from '../analytics-query.js'
import { endpoint } from '../contract.js'
import { MAX_REPORT_PARTS, reportBatchAnswer, reportBatchBody } from '../report-batch.js'
import * as at from './addresses.js'
import { siteParams } from './goals.js'

/** `POST /api/sites/:siteId/reports`: several reports in one request. */
export const reportBatchEndpoint = endpoint({
  ...at.reportBatch,
  summary: 'Several reports in one request (e.g. every panel of the overview)',
  description:
    `Up to ${MAX_REPORT_PARTS} parts, each a report of the GET routes above with its own parameters ` +
    '(`params`: as its GET route takes them in the query string; `breakdown` takes the dimension as ' +
    '`name`). The query string holds the common parameters, shared by every part (`page` and ' +
    '`limit` there are defaults a part may override). Every part is validated before any runs: an ' +
    'invalid one answers 400 naming it (`reports[3].params.limit`). The answer holds every part under ' +
    'its `id` (default: its `name`), as its GET route answers.',
  tag: 'Reports',
  access: 'reader',
  keyUse: 'read',
  params: siteParams,
  query: analyticsQuery,
  body: reportBatchBody,
  bodySubject: 'reports',
  bodyFieldNames: 'indexed',
  responses: { 200: { description: 'Every part, by id', schema: reportBatchAnswer } },
})

/** The batch endpoint (the route/contract coverage test reads these). */
export const reportBatchEndpoints = [reportBatchEndpoint] as const

declare module './addresses.js' {
  interface EndpointContracts {
    reportBatch: typeof reportBatchEndpoint
  }
}
