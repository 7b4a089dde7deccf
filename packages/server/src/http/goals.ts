/**
 * Routes: the goal commands of a site, registered from their contracts (`@pathlight/protocol`
 * `contracts/goals.ts`: paths, schemas, answers, access): create, change, delete, for a caller with the
 * admin or owner role. The reads (the list with conversions, the converted sessions) are reports of
 * the registry (`conversion-report-parts.ts`, registered by `reports.ts`), for any reader of the site.
 * Routes only translate: the contracts parse the input, `goals/goals.ts` keeps the goals.
 */
import { createGoalEndpoint, deleteGoalEndpoint, updateGoalEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForAdmin } from '../auth/site-access.js'
import { createGoal, deleteGoal, findGoal, updateGoal } from '../goals/goals.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { route } from './route.js'

/** What the goal commands need: the metadata store (goals, access) and the change feed they announce on. */
export interface GoalRouteOptions {
  db: MetadataDb
  changes: ChangeFeed
  /** The current time (the goals' timestamps); the system clock when omitted. */
  clock?: Clock
}

/**
 * POST `/api/sites/{siteId}/goals`, PUT/DELETE `.../goals/{goalId}`. Errors are AppErrors (400 naming
 * the field, 401, 403, 404): each route resolves the site (and the goal) before its body is parsed,
 * so access and existence answer before invalid input.
 */
export async function goalRoutes(
  app: FastifyInstance,
  { db, changes, clock = systemClock }: GoalRouteOptions,
) {
  const commands = { db, changes, clock }

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
