/**
 * The read tools over a site's reports: KPIs with their comparison, web vitals, live visitors,
 * sessions and one session's events. Each calls the dashboard's route of the same report.
 */

import { seriesBuckets, webVitalGroupings } from '@pathlight/protocol'
import * as at from '@pathlight/protocol/addresses'
import { z } from 'zod'
import { defineTool } from '../mcp-tool.js'
import { compareArgs, pageArgs, rangeArgs, rangeQuery, siteArg } from './tool-args.js'

const countOf = (body: Record<string, unknown>) => (Array.isArray(body.data) ? body.data.length : 0)
const totalOf = (body: Record<string, unknown>) => (body.meta as { total?: number } | undefined)?.total

const percent = (change: number | null | undefined) =>
  change === null || change === undefined ? 'n/a' : `${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)} %`

export const getStats = defineTool({
  name: 'get_stats',
  title: 'KPIs with comparison',
  description:
    'Headline figures of a site over a date range (default the last 30 days): visitors, sessions, ' +
    'pageviews, bounce rate (0-1), average session duration (seconds), views per session, and the same ' +
    'figures over the compared range with the relative change per figure ((current - previous) / ' +
    'previous, e.g. 0.25 = +25 %; null when the previous value is 0). With `bucket` (hour, day, week, ' +
    'month) also a time series. Ranges span at most 3,660 days.',
  input: {
    ...rangeArgs,
    ...compareArgs,
    bucket: z.enum(seriesBuckets).describe('Add a time series in buckets of this size').optional(),
  },
  route: at.reportStats,
  request: (args) => ({
    params: { siteId: args.site_id },
    query: {
      ...rangeQuery(args, false),
      compare: args.compare,
      compare_start_date: args.compare_start_date,
      compare_end_date: args.compare_end_date,
      bucket: args.bucket,
    },
  }),
  summarize: (body) => {
    const data = body.data as { current: Record<string, number>; change?: Record<string, number | null> }
    const meta = body.meta as { startDate: string; endDate: string }
    const { visitors, pageviews, sessions } = data.current
    return (
      `${meta.startDate}..${meta.endDate}: ${visitors} visitors (${percent(data.change?.visitors)}), ` +
      `${sessions} sessions (${percent(data.change?.sessions)}), ${pageviews} pageviews (${percent(data.change?.pageviews)}).`
    )
  },
})

export const getWebVitals = defineTool({
  name: 'get_web_vitals',
  title: 'Web vitals',
  description:
    'Core web vitals of a site over a date range: LCP, INP, FCP and TTFB in milliseconds and CLS ' +
    '(unitless), each as the 75th percentile with the share of good / needs-improvement / poor samples ' +
    'and the thresholds used. With `by` (pathname or device_type) a page of rows, one per value.',
  visitorData: true,
  input: {
    ...rangeArgs,
    ...pageArgs,
    by: z.enum(webVitalGroupings).describe('Group by pathname or device type').optional(),
  },
  route: at.reportWebVitals,
  request: (args) => ({
    params: { siteId: args.site_id },
    query: { ...rangeQuery(args, args.by !== undefined), by: args.by },
  }),
  summarize: (body, args) =>
    args.by === undefined
      ? 'Web vitals over the range.'
      : `${countOf(body)} rows of web vitals by ${args.by}.`,
})

export const getLiveVisitors = defineTool({
  name: 'get_live_visitors',
  title: 'Live visitors',
  description: 'How many distinct visitors had an event on the site in the last 5 minutes (server clock).',
  input: { ...siteArg },
  route: at.reportLive,
  request: (args) => ({ params: { siteId: args.site_id } }),
  summarize: (body) => `${(body.data as { visitors: number }).visitors} visitors in the last 5 minutes.`,
})

export const listSessions = defineTool({
  name: 'list_sessions',
  title: 'Sessions',
  description:
    'Sessions of a site over a date range, newest first: entry and exit page, pageviews, events, ' +
    'duration (seconds), country, browser, device, referrer. Paged: `page` from 1, `limit` 1-100 ' +
    '(default 25). Pass a session_id to get_session for its events.',
  visitorData: true,
  input: {
    ...rangeArgs,
    ...pageArgs,
    has_replay: z.boolean().describe('true: only sessions with a session replay recording').optional(),
  },
  route: at.reportSessions,
  request: (args) => ({
    params: { siteId: args.site_id },
    query: { ...rangeQuery(args), has_replay: args.has_replay },
  }),
  summarize: (body) => `${countOf(body)} sessions on this page of ${totalOf(body) ?? countOf(body)}.`,
})

export const getSession = defineTool({
  name: 'get_session',
  title: 'One session',
  description:
    "One session's events, oldest first (pageviews, custom events with their properties, outbound " +
    'clicks), within the date range (default the last 30 days; filters are ignored). Paged: `page`, ' +
    '`limit` 1-100 (default 25).',
  visitorData: true,
  input: {
    ...rangeArgs,
    ...pageArgs,
    session_id: z.string().min(1).max(128).describe('The session id (session_id of list_sessions)'),
  },
  route: at.reportSessionEvents,
  request: (args) => ({
    params: { siteId: args.site_id, sessionId: args.session_id },
    query: rangeQuery(args),
  }),
  summarize: (body, args) => `${countOf(body)} events of session ${args.session_id} on this page.`,
})
