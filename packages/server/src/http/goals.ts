/**
 * Routes: goals of a site. Analytics scope: reads (list with conversions,
 * converted sessions) take any reader of the site (member, private link key, anyone for a public
 * site); writes need a caller with the admin or owner role. Routes only translate: validation lives
 * in `goals/goal-input.ts` and `query/params.ts`, figures in `query/goal-*.ts`.
 */
import { doc, goal, goalId, pagedList, session } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { siteForAdmin, siteForReader } from '../auth/site-access.js'
import { MAX_EVENT_FIELD, MAX_GOAL_NAME, MAX_PATH_PATTERN } from '../goals/goal-input.js'
import { createGoal, deleteGoal, findGoal, listGoals, updateGoal } from '../goals/goals.js'
import { queryGoalConversions } from '../query/goal-conversions.js'
import { queryGoalSessions } from '../query/goal-sessions.js'
import { offsetOf, parseQueryParams } from '../query/params.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { analyticsQuery } from './analytics-query.js'
import { callerOf } from './caller-of.js'
import { deleted } from './openapi/doc-parts.js'
import { json } from './openapi/route-doc.js'
import { pageMeta } from './page-meta.js'
import { readerOf } from './reader.js'

const goalName = z.string().min(1).max(MAX_GOAL_NAME)

const pathConfig = z.strictObject({
  pathPattern: doc(
    z.string().min(1).max(MAX_PATH_PATTERN),
    'Starts with `/`; `*` only as the last character (prefix match)',
  ),
})

const eventConfig = z.strictObject({
  eventName: z.string().min(1).max(MAX_EVENT_FIELD),
  eventPropertyKey: doc(z.string().min(1).max(MAX_EVENT_FIELD), 'Give with eventPropertyValue').optional(),
  eventPropertyValue: doc(
    z.union([z.string().max(MAX_EVENT_FIELD), z.number()]),
    'Give with eventPropertyKey',
  ).optional(),
})

/** `POST /api/sites/{siteId}/goals` (`goals/goal-input.ts`). */
export const createGoalBody = z.discriminatedUnion('goalType', [
  z.strictObject({ name: goalName, goalType: z.literal('path'), config: pathConfig }),
  z.strictObject({ name: goalName, goalType: z.literal('event'), config: eventConfig }),
])

/** `PUT /api/sites/{siteId}/goals/{goalId}`: any subset; changing goalType needs a config of the new type. */
export const updateGoalBody = z.strictObject({
  name: goalName.optional(),
  goalType: z.enum(['path', 'event']).optional(),
  config: doc(z.union([pathConfig, eventConfig]), 'Replaces the stored config whole').optional(),
})

/**
 * What the goal routes need: the metadata store (goals, access), the events store (figures), and the
 * change feed the goal commands announce on.
 */
export interface GoalRouteOptions {
  db: MetadataDb
  events: EventsStore
  changes: ChangeFeed
  /** The current time (the default date range ends today); the system clock when omitted. */
  clock?: Clock
}

type SiteParams = { Params: { siteId: string } }
type GoalParams = { Params: { siteId: string; goalId: string } }

/**
 * GET/POST `/api/sites/{siteId}/goals`, PUT/DELETE `.../goals/{goalId}`, GET `.../goals/{goalId}/sessions`.
 * Bodies and responses: see README "HTTP API"; errors are AppErrors (400 naming the field, 401, 403, 404).
 */
export async function goalRoutes(
  app: FastifyInstance,
  { db, events, changes, clock = systemClock }: GoalRouteOptions,
) {
  const commands = { db, changes, clock }

  app.get<SiteParams>(
    '/api/sites/:siteId/goals',
    {
      config: {
        doc: {
          summary: 'Goals with their conversions over the range',
          tag: 'Goals',
          access: 'reader',
          query: analyticsQuery,
          responses: { 200: json('Oldest goal first', pagedList(goal)) },
        },
      },
    },
    async (request) => {
      const { site } = await siteForReader(db, readerOf(request), request.params.siteId)
      const params = parseQueryParams(request.query, clock())
      const { goals, total } = await listGoals(db, site.site_id, {
        offset: offsetOf(params),
        limit: params.limit,
      })
      const data = await queryGoalConversions(events, { siteId: site.site_id, params }, goals)
      return { data, meta: pageMeta(params, total) }
    },
  )

  app.get<GoalParams>(
    '/api/sites/:siteId/goals/:goalId/sessions',
    {
      config: {
        doc: {
          summary: 'Sessions that completed a goal',
          tag: 'Goals',
          access: 'reader',
          query: analyticsQuery,
          responses: { 200: json('Newest first', pagedList(session)) },
        },
      },
    },
    async (request) => {
      const { site } = await siteForReader(db, readerOf(request), request.params.siteId)
      const goal = await findGoal(db, site.site_id, request.params.goalId)
      const params = parseQueryParams(request.query, clock())
      const { data, total } = await queryGoalSessions(events, { siteId: site.site_id, params }, goal)
      return { data, meta: pageMeta(params, total) }
    },
  )

  app.post<SiteParams>(
    '/api/sites/:siteId/goals',
    {
      config: {
        doc: {
          summary: 'Create a goal',
          tag: 'Goals',
          access: 'admin',
          body: createGoalBody,
          responses: {
            201: json('Created', goalId),
            401: 'No credentials (a private link key does not write), or an invalid API key',
          },
        },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request)
      const { site } = await siteForAdmin(db, userId, request.params.siteId)
      const goal = await createGoal(commands, site, userId, request.body)
      return reply.code(201).send({ success: true, goalId: goal.goalId })
    },
  )

  app.put<GoalParams>(
    '/api/sites/:siteId/goals/:goalId',
    {
      config: {
        doc: {
          summary: 'Change a goal',
          description:
            'Any subset; `config` is replaced whole, and changing `goalType` needs a `config` of the new type.',
          tag: 'Goals',
          access: 'admin',
          body: updateGoalBody,
          responses: {
            200: json('Changed', goalId),
            401: 'No credentials (a private link key does not write), or an invalid API key',
          },
        },
      },
    },
    async (request) => {
      const { userId } = callerOf(request)
      const { site } = await siteForAdmin(db, userId, request.params.siteId)
      const goal = await updateGoal(commands, site, userId, request.params.goalId, request.body)
      return { success: true, goalId: goal.goalId }
    },
  )

  app.delete<GoalParams>(
    '/api/sites/:siteId/goals/:goalId',
    {
      config: {
        doc: {
          summary: 'Delete a goal',
          tag: 'Goals',
          access: 'admin',
          responses: {
            200: deleted,
            401: 'No credentials (a private link key does not write), or an invalid API key',
          },
        },
      },
    },
    async (request) => {
      const { userId } = callerOf(request)
      const { site } = await siteForAdmin(db, userId, request.params.siteId)
      await deleteGoal(commands, site, userId, request.params.goalId)
      return { success: true }
    },
  )
}
