/**
 * v1: identified users of a site. `GET /api/v1/sites/{siteId}/users` (search, sort, page) and
 * `GET /api/v1/sites/{siteId}/users/{userId}` (profile, traits with their change times, the latest
 * sessions with replay flags and events), and the same for the dashboard under `/api/sites/...`.
 * Members of the site organization only: profiles are personal data (no public or private-link reads).
 */
import { getUserEndpoint, listUsersEndpoint, v1UserEndpoint, v1UsersEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForMember } from '../../auth/site-access.js'
import { notFound } from '../../shared/errors.js'
import type { EventsStore } from '../../storage/events/events-store.js'
import type { MetadataDb } from '../../storage/metadata/db.js'
import { listUsers, userDetail } from '../../users/user-directory.js'
import { route } from '../route.js'

/** Register the users routes (inside the v1 scope, which authenticates the key). */
export async function v1UserRoutes(
  app: FastifyInstance,
  { db, events }: { db: MetadataDb; events: EventsStore },
) {
  registerUserRoutes(app, { db, events }, v1UsersEndpoint, v1UserEndpoint)
}

/** The same for the dashboard (authenticated scope: a caller who is a member of the site organization). */
export async function userRoutes(
  app: FastifyInstance,
  { db, events }: { db: MetadataDb; events: EventsStore },
) {
  // The dashboard's contracts differ from v1's only in path, access ('member') and tag.
  registerUserRoutes(
    app,
    { db, events },
    listUsersEndpoint as unknown as typeof v1UsersEndpoint,
    getUserEndpoint as unknown as typeof v1UserEndpoint,
  )
}

function registerUserRoutes(
  app: FastifyInstance,
  { db, events }: { db: MetadataDb; events: EventsStore },
  list: typeof v1UsersEndpoint,
  one: typeof v1UserEndpoint,
) {
  route(app, list, {
    resolve: ({ params, caller }) => siteForMember(db, caller.userId, params.siteId),
    handle: async ({ query, resolved: { site } }) => {
      const { users, total } = await listUsers(db, events, site.site_id, query)
      return {
        data: users,
        meta: { total, page: query.page, pageSize: query.limit, totalPages: Math.ceil(total / query.limit) },
      }
    },
  })
  route(app, one, {
    resolve: ({ params, caller }) => siteForMember(db, caller.userId, params.siteId),
    handle: async ({ params, resolved: { site } }) => {
      const user = await userDetail(db, events, site.site_id, params.userId)
      if (!user) throw notFound('User not found')
      return { data: user }
    },
  })
}
