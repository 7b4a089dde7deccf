/**
 * The demo's summary, read back from the events store through the query layer: totals and the top
 * pages, countries and browsers of one site, as text.
 */
import { pageviewTotals, topByPageviews } from '../query/pageview-summary.js'
import type { EventsStore } from '../storage/events/events-store.js'

export interface DemoSummary {
  pageviews: number
  sessions: number
  visitors: number
  topPages: { name: string; pageviews: number }[]
  topCountries: { name: string; pageviews: number }[]
  topBrowsers: { name: string; pageviews: number }[]
  text: string
}

export async function readDemoSummary(events: EventsStore, siteId: number, top = 10): Promise<DemoSummary> {
  const [totals, topPages, topCountries, topBrowsers] = await Promise.all([
    pageviewTotals(events, siteId),
    topByPageviews(events, siteId, 'pathname', top),
    topByPageviews(events, siteId, 'country', top),
    topByPageviews(events, siteId, 'browser', top),
  ])
  const table = (title: string, rows: { name: string; pageviews: number }[]) =>
    [`${title}:`, ...rows.map((r) => `  ${String(r.pageviews).padStart(6)}  ${r.name || '(unknown)'}`)].join(
      '\n',
    )
  const summary = {
    ...totals,
    topPages,
    topCountries,
    topBrowsers,
  }
  const text = [
    '',
    `Pageviews ${summary.pageviews}   Sessions ${summary.sessions}   Visitors ${summary.visitors}`,
    '',
    table('Top pages', topPages),
    '',
    table('Top countries', topCountries),
    '',
    table('Top browsers', topBrowsers),
    '',
  ].join('\n')
  return { ...summary, text }
}
