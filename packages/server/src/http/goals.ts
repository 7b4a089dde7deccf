/**
 * Routes: goals of a site, registered from their contracts (`@pathlight/protocol` `contracts/goals.ts`:
 * paths, schemas, answers, access). Analytics scope: reads (list with conversions, converted sessions)
 * take any reader of the site (member, private link key, anyone for a public site); writes need a
 * caller with the admin or owner role. Routes only translate: the contracts parse the input,
 * `goals/goals.ts` keeps the goals, `query/goal-*.ts` counts them.
 */
import {
  createGoalEndpoint,
  deleteGoalEndpoint,
  goalSessionsEndpoint,
  listGoalsEndpoint,
  updateGoalEndpoint,
} from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForAdmin, siteForReader } from '../auth/site-access.js'
import { createGoal, deleteGoal, findGoal, listGoals, updateGoal } from '../goals/goals.js'
import { queryGoalConversions } from '../query/goal-conversions.js'
import { queryGoalSessions } from '../query/goal-sessions.js'
import { offsetOf, resolveQueryParams } from '../query/params.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { pageMeta } from './page-meta.js'
import { route } from './route.js'

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

/**
 * GET/POST `/api/sites/{siteId}/goals`, PUT/DELETE `.../goals/{goalId}`, GET `.../goals/{goalId}/sessions`.
 * Errors are AppErrors (400 naming the field, 401, 403, 404): each route resolves the site (and the goal)
 * before its query or body is parsed, so access and existence answer before invalid input.
 */
export async function goalRoutes(
  app: FastifyInstance,
  { db, events, changes, clock = systemClock }: GoalRouteOptions,
) {
  const commands = { db, changes, clock }

  route(app, listGoalsEndpoint, {
    resolve: ({ params, reader }) => siteForReader(db, reader, params.siteId),
    handle: async ({ query, resolved: { site } }) => {
      const range = resolveQueryParams(query, clock())
      const { goals, total } = await listGoals(db, site.site_id, {
        offset: offsetOf(range),
        limit: range.limit,
      })
      const data = await queryGoalConversions(events, { siteId: site.site_id, params: range }, goals)
      return { data, meta: pageMeta(range, total) }
    },
  })

  route(app, goalSessionsEndpoint, {
    resolve: async ({ params, reader }) => {
      const { site } = await siteForReader(db, reader, params.siteId)
      return { site, goal: await findGoal(db, site.site_id, params.goalId) }
    },
    handle: async ({ query, resolved: { site, goal } }) => {
      const range = resolveQueryParams(query, clock())
      const { data, total } = await queryGoalSessions(events, { siteId: site.site_id, params: range }, goal)
      return { data, meta: pageMeta(range, total) }
    },
  })

  route(app, createGoalEndpoint, {
    resolve: ({ params, caller }) => siteForAdmin(db, caller.userId, params.siteId),
    handle: async ({ body, caller, resolved: { site } }) => {
      const goal = await createGoal(commands, site, caller.userId, body)
      return { success: true as const, goalId: goal.goalId }
    },
  })

  route(app, updateGoalEndpoint, {
    resolve: async ({ params, caller }) => {
      const { site } = await siteForAdmin(db, caller.userId, params.siteId)
      return { site, goal: await findGoal(db, site.site_id, params.goalId) }
    },
    handle: async ({ body, caller, resolved: { site, goal } }) => {
      const updated = await updateGoal(commands, site, caller.userId, goal, body)
      return { success: true as const, goalId: updated.goalId }
    },
  })

  route(app, deleteGoalEndpoint, async ({ params, caller }) => {
    const { site } = await siteForAdmin(db, caller.userId, params.siteId)
    await deleteGoal(commands, site, caller.userId, params.goalId)
    return { success: true as const }
  })
}
