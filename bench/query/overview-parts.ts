/**
 * The parts of the dashboard overview's first paint (as `overviewParts` in
 * `packages/dashboard/src/lib/overview-parts.ts` sends them: the chart's series with its default figure,
 * visitors, each breakdown with the one count its card shows), for the benchmarks that time the page as one `POST /api/sites/{siteId}/reports`.
 */
import type { ReportBatchBody } from '@pathlight/protocol'

const top = (name: string, metric: 'visitors' | 'pageviews' = 'visitors') => ({
  id: name,
  name: 'breakdown' as const,
  params: { name, limit: 8, metrics: [metric] },
})

/** The overview's batch body with the chart in `bucket`s. */
export const overviewBatch = (bucket: 'day' | 'week' | 'month'): ReportBatchBody => ({
  reports: [
    { id: 'stats', name: 'stats' },
    { id: 'series', name: 'series', params: { bucket, metrics: ['visitors'] } },
    top('pages', 'pageviews'),
    top('channels'),
    { id: 'countries', name: 'breakdown', params: { name: 'countries', limit: 250, metrics: ['visitors'] } },
    top('browsers'),
    { id: 'event-names', name: 'event-names', params: { limit: 8, metrics: ['events'] } },
    { id: 'live', name: 'live' },
  ],
})
