/**
 * The figures of a report mail, from the same query functions as the API's reports, so that they equal
 * what `GET /api/v1/sites/{siteId}/stats` (and `.../pages`, the breakdowns, the goals) answer for the
 * same `start_date`, `end_date`, `time_zone` and comparison (`compare=custom` with the compared
 * period's days): the headline figures of the period with their change against the compared period
 * (`query/stats-report.ts`), the top pages by
 * pageviews (`query/page-stats.ts`), the top sources (referrer domains) and countries by visitors
 * (`query/breakdown.ts`), the conversions of every goal of the site (`query/goal-conversions.ts`), and
 * the engaged time per visit (`query/page-engagement.ts`, as `GET /api/v1/sites/{siteId}/engagement`).
 */
import type { EmailReportPeriod } from '@pathlight/protocol'
import { listGoals } from '../goals/goals.js'
import { queryBreakdown } from '../query/breakdown.js'
import { queryGoalConversions } from '../query/goal-conversions.js'
import { withImportedBreakdown, withImportedStats } from '../query/imported-totals.js'
import { queryEngagementSummary } from '../query/page-engagement.js'
import { queryPageStats } from '../query/page-stats.js'
import { resolveQueryParams } from '../query/params.js'
import { comparedPeriod } from '../query/previous-period.js'
import { queryStatsReport } from '../query/stats-report.js'
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
 */
export async function queryReportFigures(
  deps: { db: MetadataDb; events: EventsStore },
  siteId: number,
  period: EmailReportPeriod,
  comparedWith: EmailReportPeriod,
  timeZone: string,
): Promise<ReportFigures> {
  const params = resolveQueryParams(
    {
      start_date: period.startDate,
      end_date: period.endDate,
      time_zone: timeZone,
      limit: TOP_ROWS,
      compare: 'custom',
      compare_start_date: comparedWith.startDate,
      compare_end_date: comparedWith.endDate,
    },
    // The range is given: the clock only fills a missing end date.
    Date.now(),
  )
  const scope = { siteId, params }
  const { goals } = await listGoals(deps.db, siteId, { offset: 0, limit: MAX_GOALS })
  const [stats, pages, sources, countries, conversions, engagement] = await Promise.all([
    // Imported daily totals (a Plausible import) count for the days before the site's own events.
    queryStatsReport(deps.events, scope).then((report) =>
      withImportedStats(deps.events, scope, comparedPeriod(scope.params), report),
    ),
    queryPageStats(deps.events, scope, { field: 'pageviews', order: 'desc' }),
    withImportedBreakdown(deps.events, scope, 'referrers', ['visitors'], (one) =>
      queryBreakdown(deps.events, one, 'referrers', ['visitors']),
    ),
    withImportedBreakdown(deps.events, scope, 'countries', ['visitors'], (one) =>
      queryBreakdown(deps.events, one, 'countries', ['visitors']),
    ),
    queryGoalConversions(deps.events, scope, goals),
    queryEngagementSummary(deps.events, scope),
  ])
  // A custom comparison always answers its figures.
  if (!('previous' in stats.data) || !('previousStartDate' in stats.meta)) {
    throw new Error('the stats report answered without its comparison')
  }
  const { current, previous, change } = stats.data
  const figure = (key: 'visitors' | 'pageviews' | 'bounce_rate' | 'session_duration'): Figure => ({
    current: current[key],
    previous: previous[key],
    change: change[key],
  })
  return {
    period,
    previousPeriod: { startDate: stats.meta.previousStartDate, endDate: stats.meta.previousEndDate },
    visitors: figure('visitors'),
    pageviews: figure('pageviews'),
    bounceRate: figure('bounce_rate'),
    visitDuration: figure('session_duration'),
    engagedTimePerVisit: engagement.engaged_time_per_visit,
    topPages: pages.data.map((p) => ({
      pathname: p.pathname,
      pageviews: p.pageviews,
      visitors: p.visitors,
      engagedTime: p.engaged_time,
      scrollDepth: p.scroll_depth,
    })),
    topSources: sources.rows.map((r) => ({ source: r.value, visitors: r.visitors ?? 0 })),
    topCountries: countries.rows.map((r) => ({ country: r.value, visitors: r.visitors ?? 0 })),
    goals: conversions.map((g) => ({
      name: g.name,
      conversions: g.total_conversions,
      conversionRate: g.conversion_rate,
    })),
  }
}
