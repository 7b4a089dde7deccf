/**
 * Routes: saved segments of a site, registered from their contracts (`@pathlight/protocol`
 * `contracts/segments.ts`). Analytics scope: the list takes any reader of the site (a member sees the
 * shared segments and their own personal ones; a private link key or an anonymous reader of a public
 * site, the shared ones); writes take a member (`segments/segments.ts` decides who changes what).
 * Applying a segment to a report (`segment=ID`) is `segment-query.ts`'s.
 */
import {
  createSegmentEndpoint,
  deleteSegmentEndpoint,
  listSegmentsEndpoint,
  updateSegmentEndpoint,
} from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForMember, siteForReader } from '../auth/site-access.js'
import {
  createSegment,
  deleteSegment,
  findSegment,
  listSegments,
  updateSegment,
} from '../segments/segments.js'
import type { Clock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { route } from './route.js'

/** What the segment routes need: the metadata store, and the clock of their timestamps. */
export interface SegmentRouteOptions {
  db: MetadataDb
  /** The current time; the system clock when omitted. */
  clock?: Clock
}

/**
 * GET/POST `/api/sites/{siteId}/segments`, PATCH/DELETE `.../segments/{segmentId}`. Errors are
 * AppErrors (400 naming the field, 401, 403, 404); the site and the segment answer before the body.
 */
export async function segmentRoutes(app: FastifyInstance, { db, clock }: SegmentRouteOptions) {
  const deps = { db, ...(clock ? { clock } : {}) }

  /** The site, the member acting and the segment as they see it. */
  const memberAndSegment = async (userId: string, siteId: string, segmentId: string) => {
    const { site, role } = await siteForMember(db, userId, siteId)
    const segment = await findSegment(db, site.site_id, { userId }, segmentId)
    return { site, actor: { userId, role }, segment }
  }

  route(app, listSegmentsEndpoint, {
    resolve: ({ params, reader }) => siteForReader(db, reader, params.siteId),
    handle: async ({ reader, resolved: { site, via } }) => {
      const viewer = { userId: via === 'member' ? (reader.userId ?? null) : null }
      const data = await listSegments(db, site.site_id, viewer)
      return { success: true as const, data, meta: { total: data.length } }
    },
  })

  route(app, createSegmentEndpoint, {
    resolve: ({ params, caller }) => siteForMember(db, caller.userId, params.siteId),
    handle: async ({ body, caller, resolved: { site, role } }) => {
      const data = await createSegment(deps, site, { userId: caller.userId, role }, body)
      return { success: true as const, data }
    },
  })

  route(app, updateSegmentEndpoint, {
    resolve: ({ params, caller }) => memberAndSegment(caller.userId, params.siteId, params.segmentId),
    handle: async ({ body, resolved: { site, actor, segment } }) => {
      const data = await updateSegment(deps, site, actor, segment, body)
      return { success: true as const, data }
    },
  })

  route(app, deleteSegmentEndpoint, {
    resolve: ({ params, caller }) => memberAndSegment(caller.userId, params.siteId, params.segmentId),
    handle: async ({ resolved: { site, actor, segment } }) => {
      await deleteSegment(deps, site, actor, segment)
      return { success: true as const }
    },
  })
}
