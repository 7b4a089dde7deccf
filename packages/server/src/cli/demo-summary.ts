/**
 * The demo's summary, read back from the events store: totals and the top pages, countries and
 * browsers of one site.
 */
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
  const params = { site: siteId, top }
  const [totals] = await events.query<{ pageviews: number; sessions: number; visitors: number }>(
    `SELECT count() AS pageviews, uniqExact(session_id) AS sessions, uniqExact(user_id) AS visitors
     FROM events WHERE site_id = {site:UInt32} AND type = 'pageview'`,
    params,
  )
  const breakdown = (column: 'pathname' | 'country' | 'browser') =>
    events.query<{ name: string; pageviews: number }>(
      `SELECT ${column} AS name, count() AS pageviews FROM events
       WHERE site_id = {site:UInt32} AND type = 'pageview'
       GROUP BY name ORDER BY pageviews DESC, name LIMIT {top:UInt32}`,
      params,
    )
  const [topPages, topCountries, topBrowsers] = await Promise.all([
    breakdown('pathname'),
    breakdown('country'),
    breakdown('browser'),
  ])
  const table = (title: string, rows: { name: string; pageviews: number }[]) =>
    [`${title}:`, ...rows.map((r) => `  ${String(r.pageviews).padStart(6)}  ${r.name || '(unknown)'}`)].join(
      '\n',
    )
  const summary = {
    pageviews: Number(totals?.pageviews ?? 0),
    sessions: Number(totals?.sessions ?? 0),
    visitors: Number(totals?.visitors ?? 0),
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
