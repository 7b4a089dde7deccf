/**
 * Data-subject requests about one visitor of a site: erasing a tracked user's or an anonymous
 * visitor's data (admins and owners, with the session cookie or a `full` API key). The exports of the
 * same visitors answer NDJSON streams and are registered by the server itself.
 */
import { z } from 'zod'
import { endpoint } from '../contract.js'
import { doc } from '../openapi-registry.js'
import { erasureResult } from '../privacy-schemas.js'
import type { Address } from './addresses.js'
import * as at from './addresses.js'

const who = 'admin or owner, with the session cookie or a `full` API key'
const keyRefused = "a `read` API key: a visitor's data needs a `full` key (or the session cookie)"
const refused =
  `Your role is member (this needs admin or owner); a \`track\` key; ${keyRefused}; ` +
  'or a cross-site cookie request (Origin/Referer not BASE_URL or a trusted origin)'
const description =
  'Deletes every event with this `user_id`, every other event of its sessions (the session ids ' +
  "those events carry) and those sessions' replay recordings, and rolls the affected hours, " +
  'days and months of the rollups up again from the events left, so every report reads as if ' +
  'they had never been stored. Events accepted before the request are erased too. Idempotent: an ' +
  'id with nothing stored answers `deleted: 0`. Audited as `visitor.erased` (with a SHA-256 of ' +
  'the id and the counts).'

/** The erasure endpoint at `address`, of the visitor its `params` name by `idName`. */
const erasure = <const A extends Address, const P extends z.ZodObject>(
  address: A,
  whose: string,
  idName: string,
  params: P,
) =>
  endpoint({
    ...address,
    summary: `Erase ${whose} data (GDPR article 17)`,
    description,
    tag: 'Sites',
    access: 'admin',
    who,
    params,
    responses: {
      200: { description: 'What was removed', schema: erasureResult },
      400: `The ${idName} is not valid (the message names it)`,
      403: refused,
    },
  })

/** `DELETE /api/sites/:siteId/users/:userId`: erase a tracked user's events, sessions and recordings. */
export const eraseUserEndpoint = erasure(
  at.eraseUser,
  "a user's",
  'userId',
  z.object({
    siteId: z.string(),
    userId: doc(
      z.string(),
      'The `user_id` the site sent when tracking (as the sessions list, the events and the export show it; ' +
        'URL-encoded)',
    ),
  }),
)

/** `DELETE /api/sites/:siteId/visitors/:visitorId`: the same for an anonymous visitor. */
export const eraseVisitorEndpoint = erasure(
  at.eraseVisitor,
  "an anonymous visitor's",
  'visitorId',
  z.object({
    siteId: z.string(),
    visitorId: doc(
      z.string(),
      'The anonymous visitor id: 16 lowercase hex digits, the `user_id` ingest gives the events of a ' +
        'visitor whose site sent none (on sites that salt ids, a new one every UTC day)',
    ),
  }),
)

/** Every data-subject endpoint declared here (the route/contract coverage test reads these). */
export const privacyEndpoints = [eraseUserEndpoint, eraseVisitorEndpoint] as const

declare module './addresses.js' {
  interface EndpointContracts {
    eraseUser: typeof eraseUserEndpoint
    eraseVisitor: typeof eraseVisitorEndpoint
  }
}
