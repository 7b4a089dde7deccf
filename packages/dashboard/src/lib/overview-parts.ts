/**
 * What each card of the overview asks, as a report part (`ReportPart` of the protocol), and the parts
 * of its first paint (one `POST /api/sites/{id}/reports`), shared by the overview page and the site
 * scope that starts that request early (`overview-prefetch.ts`). A card asks the batch for its part,
 * or sends it alone as its GET request (`api/part-request.ts`): the one declaration serves both.
 */
import type { SeriesBucket, SeriesMetric } from '@pathlight/protocol'
import type { RegisteredPart } from '../api/part-request'
import { type BreakdownDef, breakdownCards } from './report-labels'

/** Rows of a card's first tab, and of the custom events card. */
const TOP = 8
/** Rows of the world map: every country. */
const COUNTRIES = 250

/** The headline figures (the API's default comparison). */
export const statsPart = { id: 'stats', name: 'stats' } as const satisfies RegisteredPart

/** The chart's series in `bucket`s, each point with the one figure the chart shows. */
export const seriesPart = (bucket: SeriesBucket, metric: SeriesMetric) =>
  ({ id: 'series', name: 'series', params: { bucket, metrics: [metric] } }) satisfies RegisteredPart

/** The top `limit` rows of a breakdown tab, each with the one count the card shows (`def.metric`). */
export const breakdownPart = ({ name, metric }: Pick<BreakdownDef, 'name' | 'metric'>, limit = TOP) =>
  ({ id: name, name: 'breakdown', params: { name, limit, metrics: [metric] } }) satisfies RegisteredPart

/** The world map's visitors per country. */
export const countriesPart = breakdownPart({ name: 'countries', metric: 'visitors' }, COUNTRIES)

/** The most frequent custom events, by events fired (their count only, as the card shows). */
export const eventNamesPart = {
  id: 'event-names',
  name: 'event-names',
  params: { limit: TOP, metrics: ['events'] },
} satisfies RegisteredPart

/** The live visitors count (its first poll). */
export const livePart = { id: 'live', name: 'live' } as const satisfies RegisteredPart

/**
 * The reports of the overview's first paint: the headline figures, the chart's series in `bucket`s
 * with the one figure it shows (`metric`), the first tab of each breakdown card (the locations card's,
 * countries, from the map's 250 rows), the custom events and the live visitors.
 */
export const overviewParts = (bucket: SeriesBucket, metric: SeriesMetric): RegisteredPart[] => [
  statsPart,
  seriesPart(bucket, metric),
  breakdownPart(breakdownCards.pages.tabs[0]),
  breakdownPart(breakdownCards.sources.tabs[0]),
  countriesPart,
  breakdownPart(breakdownCards.devices.tabs[0]),
  eventNamesPart,
  livePart,
]
