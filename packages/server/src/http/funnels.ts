/**
 * Routes: funnels of a site. Analytics scope:
 * - ad-hoc reads take any reader of the site (member, private link key, anyone for a public site):
 *   `POST .../funnels/query` (`{steps}` → `{data: FunnelReport}`) and `POST .../funnels/sessions`
 *   (`{steps}` → the sessions behind one figure, `{data: [Session], meta}`); both are POSTs that only
 *   read (a `read` API key may call them);
 * - saved funnels: members read (`GET .../funnels`, `GET .../funnels/{funnelId}` with results,
 *   `GET .../funnels/{funnelId}/sessions`), admins and owners write (POST, PATCH, DELETE; audited).
 * Every figure takes the common query parameters and `breakdown=<filter parameter>`. Routes only
 * translate: validation lives in `funnels/funnel-input.ts` and `query/params.ts`, storage in
 * `funnels/funnels.ts`, figures in `query/funnel-*.ts`.
 */
import {
  doc,
  filterParameters,
  funnel,
  funnelReport,
  funnelWithResults,
  pagedList,
  session,
  successData,
  successList,
} from '@pathlight/protocol'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { siteForAdmin, siteForMember, siteForReader } from '../auth/site-access.js'
import type { FunnelStep } from '../funnels/funnel.js'
import { MAX_FUNNEL_STEPS, MIN_FUNNEL_STEPS } from '../funnels/funnel.js'
import { MAX_FUNNEL_NAME, parseFunnelSteps } from '../funnels/funnel-input.js'
import { createFunnel, deleteFunnel, findFunnel, listFunnels, updateFunnel } from '../funnels/funnels.js'
import { MAX_EVENT_FIELD, MAX_PATH_PATTERN } from '../goals/goal-input.js'
import type { FilterParameter } from '../query/filters.js'
import { queryFunnelReport } from '../query/funnel-report.js'
import { type FunnelSelection, queryFunnelSessions } from '../query/funnel-sessions.js'
import { integerParam, invalidParameters, parseParams, parseQueryParams, single } from '../query/params.js'
import type { ReportScope } from '../query/report-scope.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { analyticsQuery } from './analytics-query.js'
import { callerOf } from './caller-of.js'
import { deleted } from './openapi/doc-parts.js'
import { json } from './openapi/route-doc.js'
import { pageMeta } from './page-meta.js'
import { readerOf } from './reader.js'

const stepName = doc(z.string().min(1).max(MAX_FUNNEL_NAME), 'Display name').optional()

/** A step as a body sends it (`funnels/funnel-input.ts` validates it). */
export const funnelStepBody = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('path'),
    name: stepName,
    pathPattern: doc(
      z.string().min(1).max(MAX_PATH_PATTERN),
      'Starts with `/`; `*` only as the last character (prefix match)',
    ),
  }),
  z.strictObject({
    type: z.literal('event'),
    name: stepName,
    eventName: z.string().min(1).max(MAX_EVENT_FIELD),
    eventPropertyKey: doc(z.string().min(1).max(MAX_EVENT_FIELD), 'Give with eventPropertyValue').optional(),
    eventPropertyValue: doc(
      z.union([z.string().max(MAX_EVENT_FIELD), z.number()]),
      'Give with eventPropertyKey',
    ).optional(),
  }),
])

const stepList = doc(
  z.array(funnelStepBody).min(MIN_FUNNEL_STEPS).max(MAX_FUNNEL_STEPS),
  'In order: a session reaches step k when it matched steps 1..k, each at or after the previous',
)

/** `POST .../funnels/query` and `POST .../funnels/sessions`. */
export const funnelQueryBody = z.strictObject({ steps: stepList })
/** `POST .../funnels`. */
export const createFunnelBody = z.strictObject({
  name: z.string().min(1).max(MAX_FUNNEL_NAME),
  steps: stepList,
})
/** `PATCH .../funnels/{funnelId}`: any subset; `steps` replaced whole. */
export const updateFunnelBody = createFunnelBody.partial()

const breakdownParam = z.enum(filterParameters, {
  error: `breakdown must be one of ${filterParameters.join(', ')}`,
})

/** The common parameters and `breakdown` (figures routes). */
export const funnelQuery = analyticsQuery.extend({
  breakdown: doc(
    z.enum(filterParameters),
    "The steps again per value of this parameter (the session's first event's value; entry_page / " +
      'exit_page: its first / last pageview), top 10 values by step-1 sessions',
  ).optional(),
})

/** The sessions routes' parameters. */
export const funnelSessionsQuery = analyticsQuery.extend({
  step: doc(z.int().min(1).max(MAX_FUNNEL_STEPS), '1-based step'),
  outcome: doc(
    z.enum(['reached', 'dropped']),
    'reached (default): sessions that reached the step; dropped: reached it but not the next one',
  ).optional(),
  breakdown: doc(z.enum(filterParameters), 'With breakdown_value: only sessions with this value').optional(),
  breakdown_value: doc(z.string().max(2048), "The session's value of `breakdown`").optional(),
})

const reportInput = z.object({ breakdown: breakdownParam.optional() })
const sessionsInput = z.object({
  step: integerParam('step', 1, MAX_FUNNEL_STEPS),
  outcome: z.enum(['reached', 'dropped'], { error: "outcome must be 'reached' or 'dropped'" }).optional(),
  breakdown: breakdownParam.optional(),
  breakdown_value: single('breakdown_value')
    .max(2048, 'breakdown_value must be at most 2048 characters')
    .optional(),
})

/** The `breakdown` parameter. @throws AppError 400 naming it */
function breakdownOf(query: unknown): FilterParameter | undefined {
  return parseParams(reportInput, query).breakdown
}

/** The sessions routes' selection, checked against the steps. @throws AppError 400 naming the parameter */
function selectionOf(query: unknown, steps: readonly FunnelStep[]): FunnelSelection {
  const raw = parseParams(sessionsInput, query)
  const outcome = raw.outcome ?? 'reached'
  if (raw.step > steps.length) throw invalidParameters({ step: [`step must be at most ${steps.length}`] })
  if (outcome === 'dropped' && raw.step === steps.length) {
    throw invalidParameters({ step: ['no session drops after the last step: give a step before it'] })
  }
  if ((raw.breakdown === undefined) !== (raw.breakdown_value === undefined)) {
    throw invalidParameters({ breakdown_value: ['breakdown and breakdown_value go together'] })
  }
  return {
    step: raw.step,
    outcome,
    ...(raw.breakdown === undefined || raw.breakdown_value === undefined
      ? {}
      : { breakdown: { parameter: raw.breakdown, value: raw.breakdown_value } }),
  }
}

/** What the funnel routes need: the metadata store, the events store and the clock (default range). */
export interface FunnelRouteOptions {
  db: MetadataDb
  events: EventsStore
  /** The system clock when omitted. */
  clock?: Clock
}

type SiteParams = { Params: { siteId: string } }
type FunnelParams = { Params: { siteId: string; funnelId: string } }

const writeRefused = { 401: 'No credentials (a private link key does not write), or an invalid API key' }

/** The routes listed in the module comment. Errors: AppErrors (400 naming the field, 401, 403, 404). */
export async function funnelRoutes(
  app: FastifyInstance,
  { db, events, clock = systemClock }: FunnelRouteOptions,
) {
  const commands = { db, clock }
  const memberSite = async (request: FastifyRequest<SiteParams>) =>
    (await siteForMember(db, callerOf(request).userId, request.params.siteId)).site
  const adminSite = async (request: FastifyRequest<SiteParams>) =>
    (await siteForAdmin(db, callerOf(request).userId, request.params.siteId)).site
  const readerScope = async (request: FastifyRequest<SiteParams>): Promise<ReportScope> => {
    const { site } = await siteForReader(db, readerOf(request), request.params.siteId)
    return { siteId: site.site_id, params: parseQueryParams(request.query, clock()) }
  }

  app.post<SiteParams>(
    '/api/sites/:siteId/funnels/query',
    {
      config: {
        keyUse: 'read',
        doc: {
          summary: 'Figures of an ad-hoc funnel',
          description:
            'Per step: sessions (after filters) that matched steps 1..k in order (each step at or after the ' +
            'previous; equal timestamps count as in order), conversion from the previous step and from the ' +
            'start (fractions), drop-off and the median seconds from the previous step.',
          tag: 'Funnels',
          access: 'reader',
          query: funnelQuery,
          body: funnelQueryBody,
          responses: { 200: json('The figures', z.object({ data: funnelReport })) },
        },
      },
    },
    async (request) => {
      const scope = await readerScope(request)
      const breakdown = breakdownOf(request.query)
      const steps = parseFunnelSteps(request.body)
      return { data: await queryFunnelReport(events, scope, steps, breakdown) }
    },
  )

  app.post<SiteParams>(
    '/api/sites/:siteId/funnels/sessions',
    {
      config: {
        keyUse: 'read',
        doc: {
          summary: 'Sessions behind an ad-hoc funnel step',
          description: 'The sessions that reached a step, or reached it and dropped before the next one.',
          tag: 'Funnels',
          access: 'reader',
          query: funnelSessionsQuery,
          body: funnelQueryBody,
          responses: { 200: json('Newest first', pagedList(session)) },
        },
      },
    },
    async (request) => {
      const scope = await readerScope(request)
      const steps = parseFunnelSteps(request.body)
      const selection = selectionOf(request.query, steps)
      const { data, total } = await queryFunnelSessions(events, scope, steps, selection)
      return { data, meta: pageMeta(scope.params, total) }
    },
  )

  app.get<SiteParams>(
    '/api/sites/:siteId/funnels',
    {
      config: {
        doc: {
          summary: "The site's saved funnels",
          tag: 'Funnels',
          access: 'member',
          responses: { 200: json('Oldest first', successList(funnel)) },
        },
      },
    },
    async (request) => {
      const site = await memberSite(request)
      const data = await listFunnels(db, site.site_id)
      return { success: true, data, meta: { total: data.length } }
    },
  )

  app.post<SiteParams>(
    '/api/sites/:siteId/funnels',
    {
      config: {
        doc: {
          summary: 'Save a funnel',
          tag: 'Funnels',
          access: 'admin',
          body: createFunnelBody,
          responses: { 201: json('Created', successData(funnel)), ...writeRefused },
        },
      },
    },
    async (request, reply) => {
      const site = await adminSite(request)
      const saved = await createFunnel(commands, site, callerOf(request).userId, request.body)
      return reply.code(201).send({ success: true, data: saved })
    },
  )

  app.get<FunnelParams>(
    '/api/sites/:siteId/funnels/:funnelId',
    {
      config: {
        doc: {
          summary: 'A saved funnel with its figures over the range',
          tag: 'Funnels',
          access: 'member',
          query: funnelQuery,
          responses: { 200: json('The funnel and its figures', z.object({ data: funnelWithResults })) },
        },
      },
    },
    async (request) => {
      const site = await memberSite(request)
      const saved = await findFunnel(db, site.site_id, request.params.funnelId)
      const params = parseQueryParams(request.query, clock())
      const breakdown = breakdownOf(request.query)
      const results = await queryFunnelReport(
        events,
        { siteId: site.site_id, params },
        saved.steps,
        breakdown,
      )
      return { data: { ...saved, results } }
    },
  )

  app.get<FunnelParams>(
    '/api/sites/:siteId/funnels/:funnelId/sessions',
    {
      config: {
        doc: {
          summary: 'Sessions behind a saved funnel step',
          description: 'The sessions that reached a step, or reached it and dropped before the next one.',
          tag: 'Funnels',
          access: 'member',
          query: funnelSessionsQuery,
          responses: { 200: json('Newest first', pagedList(session)) },
        },
      },
    },
    async (request) => {
      const site = await memberSite(request)
      const saved = await findFunnel(db, site.site_id, request.params.funnelId)
      const params = parseQueryParams(request.query, clock())
      const selection = selectionOf(request.query, saved.steps)
      const scope = { siteId: site.site_id, params }
      const { data, total } = await queryFunnelSessions(events, scope, saved.steps, selection)
      return { data, meta: pageMeta(params, total) }
    },
  )

  app.patch<FunnelParams>(
    '/api/sites/:siteId/funnels/:funnelId',
    {
      config: {
        doc: {
          summary: 'Change a saved funnel',
          description: 'Any subset of `{name, steps}` (`steps` replaced whole).',
          tag: 'Funnels',
          access: 'admin',
          body: updateFunnelBody,
          responses: { 200: json('The funnel after the change', successData(funnel)), ...writeRefused },
        },
      },
    },
    async (request) => {
      const site = await adminSite(request)
      const data = await updateFunnel(
        commands,
        site,
        callerOf(request).userId,
        request.params.funnelId,
        request.body,
      )
      return { success: true, data }
    },
  )

  app.delete<FunnelParams>(
    '/api/sites/:siteId/funnels/:funnelId',
    {
      config: {
        doc: {
          summary: 'Delete a saved funnel',
          tag: 'Funnels',
          access: 'admin',
          responses: { 200: deleted, ...writeRefused },
        },
      },
    },
    async (request) => {
      const site = await adminSite(request)
      await deleteFunnel(commands, site, callerOf(request).userId, request.params.funnelId)
      return { success: true }
    },
  )
}
