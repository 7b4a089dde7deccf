/**
 * Heatmaps: a page's clicks by element for the dashboard and v1, the signed viewing link, and the
 * heatmap the tracker's overlay fetches with that link's token.
 */
import { z } from 'zod'
import { endpoint } from '../contract.js'
import { heatmap, heatmapLink, heatmapQuery, heatmapViewQuery } from '../heatmap-schemas.js'
import { successData } from '../response-schemas.js'
import * as at from './addresses.js'

/** `:siteId`, as text: an id that names no site is a 404 of the access check, not a 400. */
const siteParams = z.object({ siteId: z.string() })

const description =
  'Per element (selector path) of the page: clicks, rage and dead clicks, and clicks by position on a ' +
  '20 × 20 grid over the element; the scroll reach of the page. Clicks are recorded by the tracking ' +
  "script's heatmap chunk on sites with `heatmaps` on. The report filters apply; `viewport` picks a width class."

/** `GET /api/sites/:siteId/heatmap`. */
export const siteHeatmapEndpoint = endpoint({
  ...at.siteHeatmap,
  summary: "A page's heatmap",
  description,
  tag: 'Reports',
  access: 'reader',
  params: siteParams,
  query: heatmapQuery,
  responses: { 200: { description: 'The heatmap', schema: successData(heatmap) } },
})

/** `GET /api/v1/sites/:siteId/heatmap`. */
export const v1HeatmapEndpoint = endpoint({
  ...at.v1Heatmap,
  summary: "A page's heatmap",
  description,
  tag: 'v1',
  access: 'apiKey',
  params: siteParams,
  query: heatmapQuery,
  responses: {
    200: { description: 'The heatmap', schema: successData(heatmap) },
    404: "No site with this id is the key's user's",
  },
})

/** `GET /api/sites/:siteId/heatmap-link`. */
export const heatmapLinkEndpoint = endpoint({
  ...at.heatmapLink,
  summary: 'A signed link that opens the page with its heatmap',
  description:
    "The site's page with a token (HMAC-SHA256 with the instance secret, valid 10 minutes) in its fragment: " +
    'the tracking script there loads its heatmap chunk, which fetches this heatmap (page, range, filters ' +
    "and viewport as asked here) with the token and draws it over the page at the viewer's width.",
  tag: 'Reports',
  access: 'reader',
  params: siteParams,
  query: heatmapQuery,
  responses: { 200: { description: 'The link', schema: successData(heatmapLink) } },
})

/** `GET /api/heatmap-view`. */
export const heatmapViewEndpoint = endpoint({
  ...at.heatmapView,
  summary: 'The heatmap of a viewing link',
  description:
    'What the tracking script draws on a page opened from a heatmap link: the heatmap the token names. ' +
    'Any origin may read it (the page is the site’s); a token that is forged, altered or expired is refused.',
  tag: 'Tracking',
  access: 'public',
  query: heatmapViewQuery,
  responses: {
    200: { description: 'The heatmap', schema: successData(heatmap) },
    401: 'The token is invalid or expired',
    404: 'Site not found',
  },
})

/** Every heatmap endpoint (the route/contract coverage test reads these). */
export const heatmapEndpoints = [
  siteHeatmapEndpoint,
  v1HeatmapEndpoint,
  heatmapLinkEndpoint,
  heatmapViewEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    siteHeatmap: typeof siteHeatmapEndpoint
    v1Heatmap: typeof v1HeatmapEndpoint
    heatmapLink: typeof heatmapLinkEndpoint
    heatmapView: typeof heatmapViewEndpoint
  }
}
