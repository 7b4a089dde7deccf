/**
 * Routes of the browser tracking script (public scope, no authentication, callable from any origin):
 * - `GET /api/script.js`: the core script (`@pathlight/tracker`), generic for every site, cached a day
 *   by browsers and revalidated with an ETag;
 * - `GET /api/script-vitals.js`: the web-vitals chunk the core loads only on sites with `webVitals`;
 *   requested as `?v=<content hash>`, which makes it immutable for a year;
 * - `GET /api/script-engagement.js`: the engagement chunk (scroll depth, engaged time) the core loads on
 *   every site; content-hashed like the vitals chunk;
 * - `GET /api/script-heatmap.js`: the heatmap chunk (click recording, and the overlay of a signed viewing
 *   link) the core loads on sites with `heatmaps` and on a viewing link; content-hashed like the vitals chunk;
 * - `GET /api/script-replay.js`: the session replay recorder (rrweb) the core loads only on sites with
 *   `sessionReplay` and a `replaySampleRate` above 0; content-hashed like the vitals chunk;
 * - `GET /api/sites/:siteId/tracker-config`: the site's public switches (`trackOutbound`, `trackErrors`,
 *   `webVitals`, `trackUrlParams`, `sessionReplay`, `replaySampleRate`, `heatmaps`), fetched by the script in parallel with the first pageview; cached
 *   60 s by browsers and `configTtlMs` here (a site change announced on `changes` drops it at once;
 *   other processes' changes arrive within `configTtlMs`).
 * The scripts are built with esbuild on first use (or when the server starts listening), then served
 * from memory, gzip and brotli precompressed.
 */
import crypto from 'node:crypto'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import {
  coreScriptEndpoint,
  engagementScriptEndpoint,
  heatmapScriptEndpoint,
  replayScriptEndpoint,
  trackerConfigEndpoint,
  vitalsScriptEndpoint,
  type TrackerConfig as WireTrackerConfig,
} from '@pathlight/protocol'
import { buildTracker, type TrackerBuild } from '@pathlight/tracker/build'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ChangeFeed } from '../shared/change-feed.js'
import { errorBody } from '../shared/errors.js'
import { createTtlCache } from '../shared/ttl-cache.js'
import { type SiteRow, toSite } from '../sites/site.js'
import { parseSiteId } from '../sites/sites.js'
import { route } from './route.js'

/** What `scriptRoutes` needs. */
export interface ScriptRouteOptions {
  /** The site row of a numeric site id, or undefined (in the app: `findSite` on the metadata store). */
  loadSite: (siteId: number) => Promise<SiteRow | undefined>
  /** Builds the scripts; called once (again only after a failure). Default `buildTracker`. */
  build?: () => Promise<TrackerBuild>
  /** How long a site's switches are reused before `loadSite` is asked again, in ms. Default 5000. */
  configTtlMs?: number
  /** Site changes announced here drop the site's cached switches at once. */
  changes?: ChangeFeed
}

/** One served file: its bytes in each encoding and a strong validator of the content. */
interface Asset {
  hash: string
  identity: Buffer
  gzip: Buffer
  br: Buffer
}

type Encoding = 'br' | 'gzip'

/** The built files as served, with the chunks' content hashes. */
interface Assets {
  core: Asset
  vitals: Asset
  vitalsHash: string
  engagement: Asset
  engagementHash: string
  heatmap: Asset
  heatmapHash: string
  replay: Asset
  replayHash: string
}

/** Browsers reuse the core script a day without asking; then a conditional request answers 304. */
export const SCRIPT_CACHE_CONTROL = 'public, max-age=86400'
/** A chunk (vitals, replay) at its content-hashed URL never changes. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable'
/** Switch changes reach visitors within a minute (plus `configTtlMs`). */
export const CONFIG_CACHE_CONTROL = 'public, max-age=60'

const CONFIG_CACHE_MAX_SITES = 10_000

/**
 * Register the three routes. The build runs once, when the server starts listening or at the first
 * request (a failed build answers 500 and is retried by the next request). Unknown or malformed site ids
 * answer 404 `{success:false, error:'Site not found'}` on the config route.
 */
export async function scriptRoutes(
  app: FastifyInstance,
  { loadSite, build = buildTracker, configTtlMs = 5000, changes }: ScriptRouteOptions,
) {
  let assets: Promise<Assets> | undefined
  const getAssets = () => {
    assets ??= build().then(
      async (built): Promise<Assets> => {
        const [core, vitals, engagement, heatmap, replay] = await Promise.all([
          toAsset(built.core),
          toAsset(built.vitals),
          toAsset(built.engagement),
          toAsset(built.heatmap),
          toAsset(built.replay),
        ])
        return {
          core,
          vitals,
          vitalsHash: built.vitalsHash,
          engagement,
          engagementHash: built.engagementHash,
          heatmap,
          heatmapHash: built.heatmapHash,
          replay,
          replayHash: built.replayHash,
        }
      },
      (error: unknown) => {
        assets = undefined
        throw error
      },
    )
    return assets
  }
  app.addHook('onListen', async () => {
    getAssets().catch((error: unknown) =>
      app.log.error({ err: error }, 'building the tracking script failed'),
    )
  })

  route(app, coreScriptEndpoint, async ({ request, reply }) => {
    const { core } = await getAssets()
    return sendAsset(request, reply, core, SCRIPT_CACHE_CONTROL)
  })

  route(app, vitalsScriptEndpoint, async ({ request, reply, query }) => {
    const { vitals, vitalsHash } = await getAssets()
    // An old core asking for an old hash gets today's chunk, but only for a short while.
    const cacheControl = query.v === vitalsHash ? IMMUTABLE_CACHE_CONTROL : SCRIPT_CACHE_CONTROL
    return sendAsset(request, reply, vitals, cacheControl)
  })

  route(app, engagementScriptEndpoint, async ({ request, reply, query }) => {
    const { engagement, engagementHash } = await getAssets()
    const cacheControl = query.v === engagementHash ? IMMUTABLE_CACHE_CONTROL : SCRIPT_CACHE_CONTROL
    return sendAsset(request, reply, engagement, cacheControl)
  })

  route(app, heatmapScriptEndpoint, async ({ request, reply, query }) => {
    const { heatmap, heatmapHash } = await getAssets()
    const cacheControl = query.v === heatmapHash ? IMMUTABLE_CACHE_CONTROL : SCRIPT_CACHE_CONTROL
    return sendAsset(request, reply, heatmap, cacheControl)
  })

  route(app, replayScriptEndpoint, async ({ request, reply, query }) => {
    const { replay, replayHash } = await getAssets()
    const cacheControl = query.v === replayHash ? IMMUTABLE_CACHE_CONTROL : SCRIPT_CACHE_CONTROL
    return sendAsset(request, reply, replay, cacheControl)
  })

  const configs = createTtlCache<number, string | null>({
    ttlMs: configTtlMs,
    maxEntries: CONFIG_CACHE_MAX_SITES,
  })
  const loadConfig = async (siteId: number) => {
    const row = await loadSite(siteId)
    return row ? JSON.stringify(trackerConfigOf(row)) : null
  }
  const configOf = async (siteId: number) => configs.load(siteId, loadConfig)
  const unsubscribe = changes?.subscribe((change) => {
    if (change.kind === 'site') configs.delete(change.siteId)
  })
  if (unsubscribe) app.addHook('onClose', async () => unsubscribe())

  route(app, trackerConfigEndpoint, async ({ params, request, reply }) => {
    const siteId = parseSiteId(params.siteId)
    const body = siteId === null ? null : await configOf(siteId)
    reply.header('access-control-allow-origin', '*').header('cache-control', CONFIG_CACHE_CONTROL)
    if (body === null) return reply.code(404).send(errorBody('Site not found'))
    const etag = `"${hashOf(body)}"`
    reply.header('etag', etag)
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send()
    return reply.type('application/json; charset=utf-8').send(body)
  })
}

/**
 * The switches the script needs; nothing else of the site (they are public to anyone with the id):
 * the protocol's wire shape.
 */
export type TrackerConfig = WireTrackerConfig

/** The public tracker config of a site row. */
export function trackerConfigOf(row: SiteRow): TrackerConfig {
  const site = toSite(row, null)
  return {
    trackOutbound: site.trackOutbound,
    trackErrors: site.trackErrors,
    webVitals: site.webVitals,
    trackUrlParams: site.trackUrlParams,
    sessionReplay: site.sessionReplay,
    replaySampleRate: Number(row.replay_sample_rate),
    heatmaps: site.heatmaps,
  }
}

const gzip = promisify(zlib.gzip)
const brotli = promisify(zlib.brotliCompress)

/** A script in each encoding, compressed on libuv's thread pool (the recorder's brotli takes ~0.3 s). */
async function toAsset(code: string): Promise<Asset> {
  const identity = Buffer.from(code)
  const [gzipped, brotlied] = await Promise.all([
    gzip(identity, { level: 9 }),
    brotli(identity, {
      params: {
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
  ])
  return { hash: hashOf(code), identity, gzip: gzipped, br: brotlied }
}

const hashOf = (text: string) => crypto.createHash('sha256').update(text).digest('base64url').slice(0, 22)

/**
 * Send a script: the best encoding the client accepts (brotli, then gzip, else identity), an ETag per
 * encoding, 304 on a matching `If-None-Match`. CORS and CORP headers let pages load it with
 * `crossorigin` (Subresource Integrity) or under `Cross-Origin-Embedder-Policy`.
 */
function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: Asset, cacheControl: string) {
  const encoding = pickEncoding(request.headers['accept-encoding'])
  const etag = `"${asset.hash}${encoding ? `-${encoding}` : ''}"`
  reply
    .header('content-type', 'text/javascript; charset=utf-8')
    .header('cache-control', cacheControl)
    .header('vary', 'Accept-Encoding')
    .header('etag', etag)
    .header('access-control-allow-origin', '*')
    .header('cross-origin-resource-policy', 'cross-origin')
    .header('x-content-type-options', 'nosniff')
  if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send()
  if (encoding) reply.header('content-encoding', encoding)
  return reply.send(encoding ? asset[encoding] : asset.identity)
}

/**
 * The encoding to answer for an `Accept-Encoding` header: 'br' or 'gzip' when listed with a non-zero
 * q-value (or via `*`), brotli preferred; undefined for identity.
 */
export function pickEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined
  const accepted = new Map<string, number>()
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((token) => token.trim())
    const q = params.find((param) => param.startsWith('q='))
    accepted.set(name, q ? Number(q.slice(2)) || 0 : 1)
  }
  const quality = (name: Encoding) => accepted.get(name) ?? accepted.get('*') ?? 0
  if (quality('br') > 0 && quality('br') >= quality('gzip')) return 'br'
  if (quality('gzip') > 0) return 'gzip'
  return undefined
}

/** True when an `If-None-Match` header lists `etag` (weak comparison) or is `*`. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((tag) => {
    const value = tag.trim()
    return value === '*' || value.replace(/^W\//, '') === etag
  })
}
