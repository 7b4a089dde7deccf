/**
 * Data-subject requests about one visitor of a site: exporting and erasing a tracked user's or an
 * anonymous visitor's data (admins and owners, with the session cookie or a `full` API key). The
 * exports answer NDJSON streams, which their handlers write themselves (`raw`).
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

/** `:siteId` and `:userId`, a tracked user. */
const userParams = z.object({
  siteId: z.string(),
  userId: doc(
    z.string(),
    'The `user_id` the site sent when tracking (as the sessions list, the events and the export show it; ' +
      'URL-encoded)',
  ),
})

/** `:siteId` and `:visitorId`, an anonymous visitor. */
const visitorParams = z.object({
  siteId: z.string(),
  visitorId: doc(
    z.string(),
    'The anonymous visitor id: 16 lowercase hex digits, the `user_id` ingest gives the events of a ' +
      'visitor whose site sent none (on sites that salt ids, a new one every UTC day)',
  ),
})

/** `DELETE /api/sites/:siteId/users/:userId`: erase a tracked user's events, sessions and recordings. */
export const eraseUserEndpoint = erasure(at.eraseUser, "a user's", 'userId', userParams)

/** `DELETE /api/sites/:siteId/visitors/:visitorId`: the same for an anonymous visitor. */
export const eraseVisitorEndpoint = erasure(
  at.eraseVisitor,
  "an anonymous visitor's",
  'visitorId',
  visitorParams,
)

/** The export endpoint at `address`, of the visitor its `params` name by `idName`. */
const visitorExport = <const A extends Address, const P extends z.ZodObject>(
  address: A,
  whom: string,
  idName: string,
  params: P,
) =>
  endpoint({
    ...address,
    summary: `Export ${whom}'s events (NDJSON; GDPR article 15)`,
    description:
      "Every stored event with this `user_id`, oldest first, one line each in the site export's " +
      'form (`GET .../export`). Events accepted before the request are included. Audited as ' +
      '`visitor.exported` (with a SHA-256 of the id). No events: an empty body.',
    tag: 'Sites',
    access: 'admin',
    who,
    params,
    raw: true,
    responses: {
      200: {
        description: "The visitor's events, one JSON object per line",
        media: ['application/x-ndjson'],
      },
      400: `The ${idName} is not valid (the message names it)`,
      403: refused,
    },
  })

/** `GET /api/sites/:siteId/users/:userId/export`: a tracked user's events. */
export const exportUserEndpoint = visitorExport(at.exportUser, 'a user', 'userId', userParams)

/** `GET /api/sites/:siteId/visitors/:visitorId/export`: an anonymous visitor's events. */
export const exportVisitorEndpoint = visitorExport(
  at.exportVisitor,
  'an anonymous visitor',
  'visitorId',
  visitorParams,
)

/** Every data-subject endpoint declared here (the route/contract coverage test reads these). */
export const privacyEndpoints = [
  eraseUserEndpoint,
  eraseVisitorEndpoint,
  exportUserEndpoint,
  exportVisitorEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    eraseUser: typeof eraseUserEndpoint
    eraseVisitor: typeof eraseVisitorEndpoint
    exportUser: typeof exportUserEndpoint
    exportVisitor: typeof exportVisitorEndpoint
  }
}
