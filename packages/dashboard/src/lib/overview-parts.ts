/**
 * The reports of the overview's first paint (one `POST /api/sites/{id}/reports`), shared by the
 * overview page and the site scope that starts the request early (`overview-prefetch.ts`).
 */
import type { ReportPart, SeriesBucket, SeriesMetric } from '@pathlight/protocol'
import { type BreakdownDef, breakdownCards } from './report-labels'

const TOP = 8
/** A card's first tab: its top rows with the one count the card shows. */
const top = ({ name, metric }: BreakdownDef): ReportPart => ({
  id: name,
  name: 'breakdown',
  params: { name, limit: TOP, metrics: [metric] },
})

/**
 * The reports of the overview's first paint, by the ids its cards ask for: the headline figures, the
 * chart's series in `bucket`s with the one figure it shows (`metric`), the first tab of each breakdown
 * card with the count it shows (countries once, 250 rows of visitors, for the map and the locations
 * card), the custom events (their count only, as the card shows) and the live visitors.
 */
export const overviewParts = (bucket: SeriesBucket, metric: SeriesMetric): ReportPart[] => [
  { id: 'stats', name: 'stats' },
  { id: 'series', name: 'series', params: { bucket, metrics: [metric] } },
  top(breakdownCards.pages.tabs[0]),
  top(breakdownCards.sources.tabs[0]),
  { id: 'countries', name: 'breakdown', params: { name: 'countries', limit: 250, metrics: ['visitors'] } },
  top(breakdownCards.devices.tabs[0]),
  { id: 'event-names', name: 'event-names', params: { limit: TOP, metrics: ['events'] } },
  { id: 'live', name: 'live' },
]
