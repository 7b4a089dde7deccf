/**
 * The goal endpoints of a site: list goals with their conversions, the sessions that completed one,
 * and create, change, delete (admins and owners). Reads take any reader of the site.
 */
import { z } from 'zod'
import { analyticsQuery } from '../analytics-query.js'
import { endpoint } from '../contract.js'
import { goalInput, goalUpdate } from '../goal-input.js'
import { session } from '../report-schemas.js'
import { goal, goalId, pagedList, successResponse } from '../response-schemas.js'
import * as at from './addresses.js'

/** `:siteId`, as text: an id that names no site is a 404 of the access check, not a 400. */
export const siteParams = z.object({ siteId: z.string() })
/** `:siteId` and `:goalId`, as text (a malformed goal id is the goal's 404). */
export const goalParams = z.object({ siteId: z.string(), goalId: z.string() })

const noWriter = 'No credentials (a private link key does not write), or an invalid API key'

/** `GET /api/sites/:siteId/goals`: a page of the site's goals, oldest first, with their conversions. */
export const listGoalsEndpoint = endpoint({
  ...at.listGoals,
  summary: 'Goals with their conversions over the range',
  tag: 'Goals',
  access: 'reader',
  params: siteParams,
  query: analyticsQuery,
  responses: { 200: { description: 'Oldest goal first', schema: pagedList(goal) } },
})

/** `GET /api/sites/:siteId/goals/:goalId/sessions`: the sessions that completed the goal, newest first. */
export const goalSessionsEndpoint = endpoint({
  ...at.goalSessions,
  summary: 'Sessions that completed a goal',
  tag: 'Goals',
  access: 'reader',
  params: goalParams,
  query: analyticsQuery,
  responses: { 200: { description: 'Newest first', schema: pagedList(session) } },
})

/** `POST /api/sites/:siteId/goals`: create a goal; answers its id. */
export const createGoalEndpoint = endpoint({
  ...at.createGoal,
  summary: 'Create a goal',
  tag: 'Goals',
  access: 'admin',
  params: siteParams,
  body: goalInput,
  bodySubject: 'goal',
  responses: { 201: { description: 'Created', schema: goalId }, 401: noWriter },
})

/** `PUT /api/sites/:siteId/goals/:goalId`: change any subset of a goal; answers its id. */
export const updateGoalEndpoint = endpoint({
  ...at.updateGoal,
  summary: 'Change a goal',
  description:
    'Any subset; `config` is replaced whole, and changing `goalType` needs a `config` of the new type.',
  tag: 'Goals',
  access: 'admin',
  params: goalParams,
  body: goalUpdate,
  bodySubject: 'goal',
  responses: { 200: { description: 'Changed', schema: goalId }, 401: noWriter },
})

/** `DELETE /api/sites/:siteId/goals/:goalId`: delete a goal, irreversibly. */
export const deleteGoalEndpoint = endpoint({
  ...at.deleteGoal,
  summary: 'Delete a goal',
  tag: 'Goals',
  access: 'admin',
  params: goalParams,
  responses: { 200: { description: 'Deleted', schema: successResponse }, 401: noWriter },
})

/** Every goal endpoint (the route/contract coverage test reads these). */
export const goalEndpoints = [
  listGoalsEndpoint,
  goalSessionsEndpoint,
  createGoalEndpoint,
  updateGoalEndpoint,
  deleteGoalEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    listGoals: typeof listGoalsEndpoint
    goalSessions: typeof goalSessionsEndpoint
    createGoal: typeof createGoalEndpoint
    updateGoal: typeof updateGoalEndpoint
    deleteGoal: typeof deleteGoalEndpoint
  }
}
