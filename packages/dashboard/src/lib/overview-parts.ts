/**
 * The reports of the overview's first paint (one `POST /api/sites/{id}/reports`), shared by the
 * overview page and the site scope that starts the request early (`overview-prefetch.ts`).
 */
import type { ReportPart, SeriesBucket } from '@pathlight/protocol'
import { breakdownCards } from './report-labels'

const TOP = 8
const top = (name: string): ReportPart => ({ id: name, name: 'breakdown', params: { name, limit: TOP } })

/**
 * The reports of the overview's first paint, by the ids its cards ask for: the stats with the series,
 * the first tab of each breakdown card (countries once, 250 rows, for the map and the locations card),
 * the custom events and the live visitors.
 */
export const overviewParts = (bucket: SeriesBucket): ReportPart[] => [
  { id: 'stats', name: 'stats', params: { bucket } },
  top(breakdownCards.pages.tabs[0].name),
  top(breakdownCards.sources.tabs[0].name),
  { id: 'countries', name: 'breakdown', params: { name: 'countries', limit: 250 } },
  top(breakdownCards.devices.tabs[0].name),
  { id: 'event-names', name: 'event-names', params: { limit: TOP } },
  { id: 'live', name: 'live' },
]
