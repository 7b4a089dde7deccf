/**
 * The heatmap of a page: clicks per element (its selector path) with their positions binned over the
 * element's box, rage and dead clicks, and how far down visitors scrolled; and the signed viewing link
 * that draws it over the live page.
 */
import { z } from 'zod'
import { analyticsQuery, enumParam, single } from './analytics-query.js'
import { heatmapViewports } from './enums.js'
import { component, doc } from './openapi-registry.js'

/** Position bins per side of an element's box (20 × 20). */
export const HEATMAP_GRID = 20
/** The most elements a heatmap lists (those with the most clicks). */
export const HEATMAP_MAX_ELEMENTS = 500

const count = (description: string) => doc(z.int().min(0), description)

/**
 * `?page=...&viewport=...` and the common analytics parameters but paging (`page` here is the pathname:
 * a heatmap is not paged).
 */
export const heatmapQuery = analyticsQuery.omit({ page: true, limit: true }).extend({
  page: doc(
    single('page').max(2048, 'page must be at most 2048 characters').min(1, 'page is required'),
    'The pathname (as tracked: `/pricing`)',
  ),
  viewport: doc(
    enumParam('viewport', heatmapViewports).optional(),
    'Only clicks at this viewport width class (under 768 CSS px mobile, under 1024 tablet, else desktop)',
  ),
})

export const heatmapBin = component(
  'HeatmapBin',
  z.object({
    x: doc(
      z
        .int()
        .min(0)
        .max(HEATMAP_GRID - 1),
      'Column of the bin, 0 at the left edge of the element',
    ),
    y: doc(
      z
        .int()
        .min(0)
        .max(HEATMAP_GRID - 1),
      'Row of the bin, 0 at the top edge of the element',
    ),
    clicks: count('Clicks in the bin'),
    rage_clicks: count('Of them, rage clicks (the third or later within a second on the element)'),
    dead_clicks: count('Of them, dead clicks (no navigation, DOM change or URL change within a second)'),
  }),
  'Clicks at one position of an element: a cell of a 20 × 20 grid over its box.',
)

export const heatmapElement = component(
  'HeatmapElement',
  z.object({
    selector: doc(
      z.string(),
      'The clicked element as a selector path (ids, data attributes, tag and nth-of-type)',
    ),
    clicks: count('Clicks on the element'),
    rage_clicks: count('Rage clicks on it'),
    dead_clicks: count('Dead clicks on it'),
    bins: z.array(heatmapBin),
  }),
  'One clicked element of the page with its clicks by position.',
)

export const heatmapScroll = component(
  'HeatmapScroll',
  z.object({
    visitors: count('Visitors with an engagement event on the page (the denominator)'),
    scroll_depth: doc(
      z.number().min(0).max(100),
      "The median of visitors' deepest scroll, percent of the page's height",
    ),
    scroll_25: doc(z.number().min(0).max(1), 'Fraction of them who reached 25 % of the page'),
    scroll_50: doc(z.number().min(0).max(1), 'Fraction who reached 50 %'),
    scroll_75: doc(z.number().min(0).max(1), 'Fraction who reached 75 %'),
    scroll_100: doc(z.number().min(0).max(1), 'Fraction who reached the bottom'),
  }),
  'How far down visitors got on the page (from engagement events).',
)

export const heatmap = component(
  'Heatmap',
  z.object({
    page: z.string(),
    grid: doc(z.int(), 'Bins per side of an element (20)'),
    total_clicks: count('Clicks on the page in the range'),
    rage_clicks: count('Rage clicks'),
    dead_clicks: count('Dead clicks'),
    elements: doc(
      z.array(heatmapElement),
      `The clicked elements, most clicks first (at most ${HEATMAP_MAX_ELEMENTS})`,
    ),
    scroll: doc(
      heatmapScroll.nullable(),
      'Scroll reach; null when the page has no engagement events in the range',
    ),
  }),
  "A page's heatmap over the range: clicks by element and position, rage and dead clicks, scroll reach.",
)
/** A heatmap as the routes answer it. */
export type Heatmap = z.infer<typeof heatmap>

export const heatmapLink = component(
  'HeatmapLink',
  z.object({
    url: doc(z.string(), "The site's page (https://<domain><page>) with the viewing token in its fragment"),
    token: doc(z.string(), 'The signed viewing token (`#pathlight-heatmap=<token>`)'),
    expiresAt: doc(z.string(), 'When the token stops working (ISO 8601 UTC)'),
  }),
  'A short-lived signed link that opens the page with its heatmap drawn on it.',
)

/** `GET /api/heatmap-view?token=...`. */
export const heatmapViewQuery = z.object({
  token: doc(single('token').max(4096, 'token must be at most 4096 characters'), 'The signed viewing token'),
})
