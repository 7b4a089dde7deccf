/**
 * Routes of Rybbit's web SDK (`@rybbit/js` at `analyticsHost: <pathlight>/api`) besides `/api/track`
 * (contracts in `@pathlight/protocol` `contracts/rybbit.ts`). Public, readable from any origin:
 * - `GET /api/site/tracking-config/{siteId}`: the site's switches under the SDK's names, cached 60 s;
 * - `POST /api/identify` (and its preflight): `users/identify.ts`;
 * - `POST /api/session-replay/record/{siteId}` (and its preflight): the SDK's rrweb batch, input values
 *   masked (`replay/mask-replay-inputs.ts`), handed to the replay use case of `POST /api/replay` as a
 *   batch of the visitor's session (numbered per visitor in this process).
 */
import {
  identifyEndpoint,
  identifyPreflightEndpoint,
  type RybbitTrackingConfig,
  rybbitReplayEndpoint,
  rybbitReplayPreflightEndpoint,
  rybbitTrackingConfigEndpoint,
} from '@pathlight/protocol'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { Ingest } from '../ingest/ingest.js'
import { maskReplayInputs } from '../replay/mask-replay-inputs.js'
import { MAX_REPLAY_BODY_BYTES, type ReplayIngest } from '../replay/replay-ingest.js'
import { errorBody } from '../shared/errors.js'
import { createTtlCache } from '../shared/ttl-cache.js'
import { sdkSwitchesOf } from '../sites/sdk-switches.js'
import type { SiteRow } from '../sites/site.js'
import { findSite, parseSiteId } from '../sites/sites.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { toBool } from '../storage/metadata/schema.js'
import { identify } from '../users/identify.js'
import { createVisitorLinks } from '../users/visitor-links.js'
import { route } from './route.js'

export interface RybbitSdkRouteOptions {
  ingest: Ingest
  db: MetadataDb
  replay: ReplayIngest
}

/** The switches of a site row under the names `@rybbit/js` reads. */
export function rybbitTrackingConfigOf(row: SiteRow): RybbitTrackingConfig {
  const sdk = sdkSwitchesOf(row)
  return {
    trackInitialPageView: sdk.trackInitialPageView,
    trackSpaNavigation: sdk.trackSpaNavigation,
    trackUrlParams: toBool(row.track_url_params),
    trackOutbound: toBool(row.track_outbound),
    webVitals: toBool(row.web_vitals),
    trackErrors: toBool(row.track_errors),
    sessionReplay: toBool(row.session_replay),
    trackButtonClicks: sdk.trackButtonClicks,
    trackCopy: sdk.trackCopy,
    trackFormInteractions: sdk.trackFormInteractions,
  }
}

const preflight = (reply: FastifyReply) =>
  reply
    .code(204)
    .header('access-control-allow-methods', 'POST')
    .header('access-control-allow-headers', 'content-type')
    .header('access-control-max-age', '86400')
    .send()

export async function rybbitSdkRoutes(app: FastifyInstance, { ingest, db, replay }: RybbitSdkRouteOptions) {
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*')
  })
  const visitorLinks = ingest.deps.visitorLinks ?? createVisitorLinks(db)

  route(app, rybbitTrackingConfigEndpoint, async ({ params, reply }) => {
    const siteId = parseSiteId(params.siteId)
    const row = siteId === null ? undefined : await findSite(db, siteId)
    reply.header('cache-control', 'public, max-age=60')
    if (!row) return reply.code(404).send(errorBody('Site not found'))
    return reply.send(rybbitTrackingConfigOf(row))
  })

  route(app, identifyPreflightEndpoint, async ({ reply }) => preflight(reply))
  route(app, identifyEndpoint, async ({ body, request, reply }) => {
    const result = await identify(
      { ...ingest.deps, db, visitorLinks },
      {
        body,
        origin: request.headers.origin,
        referer: request.headers.referer,
        userAgent: request.headers['user-agent'],
        ip: request.ip,
      },
    )
    return reply.code(result.status).send(result.body)
  })

  /** The next batch number of each visitor's recording (`site:ip:user agent`), per process. */
  const sequences = createTtlCache<string, number>({ ttlMs: 60 * 60_000, maxEntries: 100_000, lru: true })
  route(app, rybbitReplayPreflightEndpoint, async ({ reply }) => preflight(reply))
  route(
    app,
    rybbitReplayEndpoint,
    async ({ params, body, request, reply }) => {
      const visitor = `${params.siteId}:${request.ip}:${request.headers['user-agent'] ?? ''}`
      const sequence = sequences.get(visitor) ?? 0
      sequences.set(visitor, sequence + 1)
      const batch = {
        site_id: params.siteId,
        sequence,
        ...(body.userId ? { user_id: body.userId } : {}),
        events: maskReplayInputs(body.events),
      }
      const result = await replay.accept({
        body: Buffer.from(JSON.stringify(batch)),
        origin: request.headers.origin,
        referer: request.headers.referer,
        userAgent: request.headers['user-agent'],
        ip: request.ip,
      })
      return reply.code(result.status).send(result.body)
    },
    { bodyLimit: MAX_REPLAY_BODY_BYTES },
  )
}
