/**
 * The figures of a report mail, read through the report registry's functions (`http/report-parts.ts`)
 * with each report's query built as its contract parses it (`contracts/report-registry.ts` of the
 * protocol), so that they equal what the dashboard's reports (and their v1 twins) answer for the same
 * `start_date`, `end_date` and `time_zone`: the headline figures of the period with their change
 * against the compared period (`stats` with `compare=custom` and the compared period's days), the top
 * pages by pageviews (`page-stats`), the top sources (referrer domains) and countries by visitors (the
 * `referrers` and `countries` breakdowns, visitors only) and the engaged time per visit (`engagement`).
 * The conversions of every goal of the site come from the goals list's query (`query/goal-conversions.ts`,
 * as `GET /api/sites/{siteId}/goals`), which has no report function yet.
 */
import {
  type AnalyticsQuery,
  type EmailReportPeriod,
  listGoalsEndpoint,
  reportRegistry,
} from '@pathlight/protocol'
import { listGoals } from '../goals/goals.js'
import { reportScope } from '../http/report-part.js'
import { reportParts } from '../http/report-parts.js'
import { queryGoalConversions } from '../query/goal-conversions.js'
import { offsetOf, parseParams } from '../query/params.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'

/** Rows of each top list in a mail. */
export const TOP_ROWS = 5
/** Goals listed in a mail at most (the site's oldest first). */
const MAX_GOALS = 20

/** A headline figure of the period, the one before, and the relative change (null when it was 0). */
export interface Figure {
  current: number
  previous: number
  change: number | null
}

/** Everything a report mail shows. Durations are seconds, rates fractions 0..1. */
export interface ReportFigures {
  period: EmailReportPeriod
  previousPeriod: EmailReportPeriod
  visitors: Figure
  pageviews: Figure
  bounceRate: Figure
  /** Average visit duration, seconds. */
  visitDuration: Figure
  /**
   * Site-wide engaged seconds per visit with engagement events (`query/page-engagement.ts`), without
   * a comparison; null when the period has none.
   */
  engagedTimePerVisit: number | null
  /**
   * Pathnames by pageviews, with their engaged seconds per pageview and median scroll depth (percent) from the
   * tracker's engagement events; null when the page has none.
   */
  topPages: {
    pathname: string
    pageviews: number
    visitors: number
    engagedTime: number | null
    scrollDepth: number | null
  }[]
  /** Referrer domains of visits, by visitors (visits without a referrer left out). */
  topSources: { source: string; visitors: number }[]
  /** ISO 3166-1 alpha-2 codes ('' unknown), by visitors. */
  topCountries: { country: string; visitors: number }[]
  goals: { name: string; conversions: number; conversionRate: number }[]
}

/**
 * The figures of `period` for one site, compared with `comparedWith`.
 * @param timeZone canonical IANA name of the report's calendar
 * @param deps.clock the current time (the range is given: it only fills a missing end date); the
 *   system clock when omitted
 */
export async function queryReportFigures(
  deps: { db: MetadataDb; events: EventsStore; clock?: Clock },
  siteId: number,
  period: EmailReportPeriod,
  comparedWith: EmailReportPeriod,
  timeZone: string,
): Promise<ReportFigures> {
  const parts = { events: deps.events, db: deps.db, clock: deps.clock ?? systemClock }
  // The query string each report's route would get for the mail's range.
  const range = { start_date: period.startDate, end_date: period.endDate, time_zone: timeZone }
  const top = { ...range, limit: String(TOP_ROWS) }
  const compared = {
    ...range,
    compare: 'custom',
    compare_start_date: comparedWith.startDate,
    compare_end_date: comparedWith.endDate,
  }
  const breakdownQuery = parseParams(reportRegistry.breakdown.endpoint.query, { ...top, metrics: 'visitors' })
  const prepared = {
    stats: reportParts.stats(parts, siteId, parseParams(reportRegistry.stats.endpoint.query, compared)),
    pages: reportParts['page-stats'](
      parts,
      siteId,
      parseParams(reportRegistry['page-stats'].endpoint.query, { ...top, sort: 'pageviews', order: 'desc' }),
    ),
    sources: reportParts.breakdown(parts, siteId, breakdownQuery, 'referrers'),
    countries: reportParts.breakdown(parts, siteId, breakdownQuery, 'countries'),
    engagement: reportParts.engagement(
      parts,
      siteId,
      parseParams(reportRegistry.engagement.endpoint.query, range),
    ),
  }
  const goalsQuery: AnalyticsQuery = parseParams(listGoalsEndpoint.query, {
    ...range,
    limit: String(MAX_GOALS),
  })
  const goalsScope = reportScope(parts, siteId, goalsQuery)
  const { goals } = await listGoals(deps.db, siteId, {
    offset: offsetOf(goalsScope.params),
    limit: goalsScope.params.limit,
  })
  const [stats, pages, sources, countries, engagement, conversions] = await Promise.all([
    prepared.stats(),
    prepared.pages(),
    prepared.sources(),
    prepared.countries(),
    prepared.engagement(),
    queryGoalConversions(deps.events, goalsScope, goals),
  ])
  const { current, previous, change } = stats.data
  const { previousStartDate, previousEndDate } = stats.meta
  // A custom comparison always answers its figures.
  if (!previous || !change || previousStartDate === undefined || previousEndDate === undefined) {
    throw new Error('the stats report answered without its comparison')
  }
  const figure = (key: 'visitors' | 'pageviews' | 'bounce_rate' | 'session_duration'): Figure => ({
    current: current[key],
    previous: previous[key],
    change: change[key],
  })
  return {
    period,
    previousPeriod: { startDate: previousStartDate, endDate: previousEndDate },
    visitors: figure('visitors'),
    pageviews: figure('pageviews'),
    bounceRate: figure('bounce_rate'),
    visitDuration: figure('session_duration'),
    engagedTimePerVisit: engagement.data.engaged_time_per_visit,
    topPages: pages.data.map((p) => ({
      pathname: p.pathname,
      pageviews: p.pageviews,
      visitors: p.visitors,
      engagedTime: p.engaged_time,
      scrollDepth: p.scroll_depth,
    })),
    topSources: sources.data.map((r) => ({ source: r.value, visitors: r.visitors ?? 0 })),
    topCountries: countries.data.map((r) => ({ country: r.value, visitors: r.visitors ?? 0 })),
    goals: conversions.map((g) => ({
      name: g.name,
      conversions: g.total_conversions,
      conversionRate: g.conversion_rate,
    })),
  }
}
