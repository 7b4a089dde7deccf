/**
 * Routes: goals of a site. Analytics scope: reads (list with conversions,
 * converted sessions) take any reader of the site (member, private link key, anyone for a public
 * site); writes need a caller with the admin or owner role. Routes only translate: validation lives
 * in `goals/goal-input.ts` and `query/params.ts`, figures in `query/goal-*.ts`.
 */
import type { FastifyInstance } from 'fastify'
import { siteForAdmin, siteForReader } from '../auth/site-access.js'
import { createGoal, deleteGoal, findGoal, listGoals, updateGoal } from '../goals/goals.js'
import { queryGoalConversions } from '../query/goal-conversions.js'
import { queryGoalSessions } from '../query/goal-sessions.js'
import { offsetOf, parseQueryParams } from '../query/params.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { callerOf } from './caller-of.js'
import { pageMeta } from './page-meta.js'
import { readerOf } from './reader.js'

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

  app.get<SiteParams>('/api/sites/:siteId/goals', async (request) => {
    const { site } = await siteForReader(db, readerOf(request), request.params.siteId)
    const params = parseQueryParams(request.query, clock())
    const { goals, total } = await listGoals(db, site.site_id, {
      offset: offsetOf(params),
      limit: params.limit,
    })
    const data = await queryGoalConversions(events, { siteId: site.site_id, params }, goals)
    return { data, meta: pageMeta(params, total) }
  })

  app.get<GoalParams>('/api/sites/:siteId/goals/:goalId/sessions', async (request) => {
    const { site } = await siteForReader(db, readerOf(request), request.params.siteId)
    const goal = await findGoal(db, site.site_id, request.params.goalId)
    const params = parseQueryParams(request.query, clock())
    return { data: await queryGoalSessions(events, { siteId: site.site_id, params }, goal) }
  })

  app.post<SiteParams>('/api/sites/:siteId/goals', async (request, reply) => {
    const { userId } = callerOf(request)
    const { site } = await siteForAdmin(db, userId, request.params.siteId)
    const goal = await createGoal(commands, site, userId, request.body)
    return reply.code(201).send({ success: true, goalId: goal.goalId })
  })

  app.put<GoalParams>('/api/sites/:siteId/goals/:goalId', async (request) => {
    const { userId } = callerOf(request)
    const { site } = await siteForAdmin(db, userId, request.params.siteId)
    const goal = await updateGoal(commands, site, userId, request.params.goalId, request.body)
    return { success: true, goalId: goal.goalId }
  })

  app.delete<GoalParams>('/api/sites/:siteId/goals/:goalId', async (request) => {
    const { userId } = callerOf(request)
    const { site } = await siteForAdmin(db, userId, request.params.siteId)
    await deleteGoal(commands, site, userId, request.params.goalId)
    return { success: true }
  })
}
