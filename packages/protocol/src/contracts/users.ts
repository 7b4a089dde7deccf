/**
 * Identified users of a site in the v1 API (`user-schemas.ts`): the list and one user's page.
 */
import { z } from 'zod'
import { endpoint } from '../contract.js'
import { pagedList } from '../response-schemas.js'
import { userDetail, userListQuery, userSummary } from '../user-schemas.js'
import * as at from './addresses.js'
import { siteParams } from './goals.js'

const notMine = 'Not found, or not in one of your organizations'

/** `GET /api/v1/sites/:siteId/users`. */
export const v1UsersEndpoint = endpoint({
  ...at.v1Users,
  summary: 'Identified users with their figures',
  description:
    'Users the site identified (`user_id` in tracking, or `POST /api/identify`); anonymous visitors are ' +
    'never listed. Figures over all their stored events.',
  tag: 'v1',
  access: 'apiKey',
  params: siteParams,
  query: userListQuery,
  responses: { 200: { description: 'A page of users', schema: pagedList(userSummary) }, 404: notMine },
})

/** `GET /api/v1/sites/:siteId/users/:userId`. */
export const v1UserEndpoint = endpoint({
  ...at.v1User,
  summary: "An identified user's profile and timeline",
  tag: 'v1',
  access: 'apiKey',
  params: z.object({ siteId: z.string(), userId: z.string() }),
  responses: {
    200: { description: 'The user', schema: z.object({ data: userDetail }) },
    404: `${notMine}, or no such identified user`,
  },
})

/** `GET /api/sites/:siteId/users`: the dashboard's Users page (members only: profiles are personal data). */
export const listUsersEndpoint = endpoint({
  ...at.listUsers,
  summary: 'Identified users with their figures (dashboard)',
  description: 'As `GET /api/v1/sites/{siteId}/users`; members of the site organization only.',
  tag: 'Reports',
  access: 'member',
  params: siteParams,
  query: userListQuery,
  responses: { 200: { description: 'A page of users', schema: pagedList(userSummary) }, 404: notMine },
})

/** `GET /api/sites/:siteId/users/:userId`: a user's page in the dashboard. */
export const getUserEndpoint = endpoint({
  ...at.getUser,
  summary: "An identified user's profile and timeline (dashboard)",
  tag: 'Reports',
  access: 'member',
  params: z.object({ siteId: z.string(), userId: z.string() }),
  responses: {
    200: { description: 'The user', schema: z.object({ data: userDetail }) },
    404: `${notMine}, or no such identified user`,
  },
})

export const userEndpoints = [v1UsersEndpoint, v1UserEndpoint, listUsersEndpoint, getUserEndpoint] as const

declare module './addresses.js' {
  interface EndpointContracts {
    v1Users: typeof v1UsersEndpoint
    v1User: typeof v1UserEndpoint
    listUsers: typeof listUsersEndpoint
    getUser: typeof getUserEndpoint
  }
}
