/**
 * The browser tracking script and what it fetches: the core script, its web-vitals and session replay
 * chunks (loaded only on sites with those switches on) and a site's public switches. Public, callable
 * from any origin; each answers 304 on a matching `If-None-Match`.
 */
import { z } from 'zod'
import { endpoint } from '../contract.js'
import { doc } from '../openapi-registry.js'
import { trackerConfig } from '../response-schemas.js'
import * as at from './addresses.js'

/** `?v=`: the content hash the core script asks its chunks for. */
export const chunkQuery = z.object({
  v: doc(
    z.string(),
    'The content hash the core script asks for: with the current one, cached a year',
  ).optional(),
})

const notModified = { description: 'Not modified (the `If-None-Match` ETag matches)' }
const script = (description: string) => ({ description, media: ['text/javascript'] })

/** `GET /api/script.js`. */
export const coreScriptEndpoint = endpoint({
  ...at.coreScript,
  summary: 'The browser tracking script',
  description: 'Generic for every site; cached a day, revalidated by ETag; brotli or gzip when accepted.',
  tag: 'Tracking',
  access: 'public',
  raw: true,
  responses: { 200: script('The script'), 304: notModified },
})

/** `GET /api/script-vitals.js`. */
export const vitalsScriptEndpoint = endpoint({
  ...at.vitalsScript,
  summary: 'The web-vitals chunk of the tracking script',
  tag: 'Tracking',
  access: 'public',
  raw: true,
  query: chunkQuery,
  responses: { 200: script('The chunk'), 304: notModified },
})

/** `GET /api/script-engagement.js`. */
export const engagementScriptEndpoint = endpoint({
  ...at.engagementScript,
  summary: 'The engagement chunk of the tracking script',
  description:
    'Scroll depth and engaged time of each pageview, loaded by the script on every site; immutable at ' +
    'its content-hashed URL.',
  tag: 'Tracking',
  access: 'public',
  raw: true,
  query: chunkQuery,
  responses: { 200: script('The chunk'), 304: notModified },
})

/** `GET /api/script-heatmap.js`. */
export const heatmapScriptEndpoint = endpoint({
  ...at.heatmapScript,
  summary: 'The heatmap chunk of the tracking script',
  description:
    'Records clicks against the clicked element (selector path and position inside it), loaded by the ' +
    'script only on sites with `heatmaps` on, and draws the heatmap over the page when opened from a ' +
    'signed viewing link; immutable at its content-hashed URL.',
  tag: 'Tracking',
  access: 'public',
  raw: true,
  query: chunkQuery,
  responses: { 200: script('The chunk'), 304: notModified },
})

/** `GET /api/script-replay.js`. */
export const replayScriptEndpoint = endpoint({
  ...at.replayScript,
  summary: 'The session replay chunk of the tracking script',
  description:
    'The recorder (rrweb), loaded by the script only on sites with `sessionReplay` on; immutable ' +
    'at its content-hashed URL.',
  tag: 'Tracking',
  access: 'public',
  raw: true,
  query: chunkQuery,
  responses: { 200: script('The chunk'), 304: notModified },
})

/** `GET /api/sites/:siteId/tracker-config`. */
export const trackerConfigEndpoint = endpoint({
  ...at.trackerConfig,
  summary: "A site's tracking switches, for the script",
  description: 'Cached 60 s by browsers; revalidated by ETag.',
  tag: 'Tracking',
  access: 'public',
  raw: true,
  params: z.object({ siteId: z.string() }),
  responses: {
    200: { description: 'The switches', schema: trackerConfig },
    304: notModified,
    404: 'Site not found',
  },
})

/** Every tracking script endpoint (the route/contract coverage test reads these). */
export const trackingScriptEndpoints = [
  coreScriptEndpoint,
  vitalsScriptEndpoint,
  engagementScriptEndpoint,
  heatmapScriptEndpoint,
  replayScriptEndpoint,
  trackerConfigEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    coreScript: typeof coreScriptEndpoint
    vitalsScript: typeof vitalsScriptEndpoint
    engagementScript: typeof engagementScriptEndpoint
    heatmapScript: typeof heatmapScriptEndpoint
    replayScript: typeof replayScriptEndpoint
    trackerConfig: typeof trackerConfigEndpoint
  }
}
