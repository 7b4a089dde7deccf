/**
 * The heatmap of one page over a report scope, from `heatmap_click` events (the tracker's heatmap chunk
 * sends one per click: `packages/tracker/src/heatmap-recorder.ts`; events migration 017 keeps their
 * figures in `click_*` columns):
 * - per clicked element (its selector path), the clicks, rage clicks and dead clicks, and the clicks by
 *   position on a {@link HEATMAP_GRID} × {@link HEATMAP_GRID} grid over the element's box (a position
 *   of 0-1000 thousandths falls in bin `floor(p * grid / 1000)`, the far edge in the last bin);
 * - the elements with the most clicks first (ties by selector), at most {@link HEATMAP_MAX_ELEMENTS};
 * - the page's scroll reach from its engagement events (`page-engagement.ts`).
 * Filters apply as to pageviews: event filters to the clicks, session filters through the sessions
 * passing them; `viewport` keeps the clicks of one width class (it does not narrow the scroll reach,
 * which engagement events do not record per width class).
 */
import { HEATMAP_GRID, HEATMAP_MAX_ELEMENTS, type Heatmap, type HeatmapViewport } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { queryPageEngagement } from './page-engagement.js'
import { filtersOf, type ReportScope, SCOPE_SQL, scopeOf } from './report-scope.js'
import { runReport } from './run-report.js'
import { sessionFilterRestriction } from './sessions-subquery.js'

/** What a heatmap is asked for: the page (pathname) and optionally one viewport width class. */
export interface HeatmapRequest {
  page: string
  viewport?: HeatmapViewport
}

/** The condition selecting the page's clicks in `scope`, with its values. */
function clicksWhere(
  scope: ReportScope,
  request: HeatmapRequest,
): { where: string; params: Record<string, unknown> } {
  const filters = filtersOf(scope)
  const where = [SCOPE_SQL, "type = 'heatmap_click'", 'pathname = {page:String}']
  if (request.viewport) where.push('click_viewport = {viewport:String}')
  if (filters.event) where.push(`(${filters.event})`)
  const restriction = sessionFilterRestriction(filters)
  if (restriction) where.push(restriction)
  return {
    where: where.join(' AND '),
    params: {
      ...scopeOf(scope).params,
      ...filters.params,
      page: request.page,
      ...(request.viewport ? { viewport: request.viewport } : {}),
    },
  }
}

/**
 * The query of the page's clicks by element and bin: one row per (selector, x bin, y bin) of the
 * elements with the most clicks.
 */
export function compileHeatmapBins(scope: ReportScope, request: HeatmapRequest): CompiledQuery {
  const { where, params } = clicksWhere(scope, request)
  return {
    sql: `SELECT click_selector AS selector,
  toUInt8(intDiv(least(click_x, 999) * {grid:UInt16}, 1000)) AS x,
  toUInt8(intDiv(least(click_y, 999) * {grid:UInt16}, 1000)) AS y,
  count() AS clicks,
  countIf(bitAnd(click_flags, 1) != 0) AS rage_clicks,
  countIf(bitAnd(click_flags, 2) != 0) AS dead_clicks
FROM events
WHERE ${where} AND click_selector IN (
  SELECT click_selector FROM events WHERE ${where}
  GROUP BY click_selector ORDER BY count() DESC, click_selector LIMIT {elements:UInt32}
)
GROUP BY selector, x, y
ORDER BY selector, x, y`,
    params: { ...params, grid: HEATMAP_GRID, elements: HEATMAP_MAX_ELEMENTS },
  }
}

interface BinRow {
  selector: string
  x: number
  y: number
  clicks: number
  rage_clicks: number
  dead_clicks: number
}

/**
 * The heatmap of `request.page` in `scope`.
 * @throws AppError 400 when the store refuses the query as the client's (e.g. an invalid regex filter)
 */
export async function queryHeatmap(
  events: EventsStore,
  scope: ReportScope,
  request: HeatmapRequest,
): Promise<Heatmap> {
  const [rows, engagement] = await Promise.all([
    runReport<Record<string, unknown>>(events, compileHeatmapBins(scope, request), 'heatmap'),
    queryPageEngagement(events, scope, [request.page]),
  ])
  const elements = new Map<string, Heatmap['elements'][number]>()
  for (const raw of rows) {
    const row: BinRow = {
      selector: String(raw.selector),
      x: Number(raw.x),
      y: Number(raw.y),
      clicks: Number(raw.clicks),
      rage_clicks: Number(raw.rage_clicks),
      dead_clicks: Number(raw.dead_clicks),
    }
    let element = elements.get(row.selector)
    if (!element) {
      element = { selector: row.selector, clicks: 0, rage_clicks: 0, dead_clicks: 0, bins: [] }
      elements.set(row.selector, element)
    }
    element.clicks += row.clicks
    element.rage_clicks += row.rage_clicks
    element.dead_clicks += row.dead_clicks
    element.bins.push({
      x: row.x,
      y: row.y,
      clicks: row.clicks,
      rage_clicks: row.rage_clicks,
      dead_clicks: row.dead_clicks,
    })
  }
  const sorted = [...elements.values()].sort(
    (a, b) => b.clicks - a.clicks || (a.selector < b.selector ? -1 : a.selector > b.selector ? 1 : 0),
  )
  const sum = (key: 'clicks' | 'rage_clicks' | 'dead_clicks') => sorted.reduce((n, e) => n + e[key], 0)
  const page = engagement.get(request.page)
  return {
    page: request.page,
    grid: HEATMAP_GRID,
    total_clicks: sum('clicks'),
    rage_clicks: sum('rage_clicks'),
    dead_clicks: sum('dead_clicks'),
    elements: sorted,
    scroll: page
      ? {
          visitors: page.engaged_visitors,
          scroll_depth: page.scroll_depth,
          scroll_25: page.scroll_25,
          scroll_50: page.scroll_50,
          scroll_75: page.scroll_75,
          scroll_100: page.scroll_100,
        }
      : null,
  }
}
