/**
 * The demo's summary, read back from the events store through the query layer: totals (pageviews,
 * sessions, visitors) and the top pages, countries and browsers of one site by pageviews, as text whose
 * every figure names its unit.
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
  const table = (title: string, column: string, rows: { name: string; pageviews: number }[]) =>
    [
      `${title}, by pageviews:`,
      `  ${'pageviews'.padStart(9)}  ${column}`,
      ...rows.map((r) => `  ${String(r.pageviews).padStart(9)}  ${r.name || '(unknown)'}`),
    ].join('\n')
  const summary = {
    ...totals,
    topPages,
    topCountries,
    topBrowsers,
  }
  const text = [
    '',
    `${summary.pageviews} pageviews in ${summary.sessions} sessions of ${summary.visitors} visitors`,
    '',
    table('Top pages', 'page', topPages),
    '',
    table('Top countries', 'country', topCountries),
    '',
    table('Top browsers', 'browser', topBrowsers),
    '',
  ].join('\n')
  return { ...summary, text }
}
