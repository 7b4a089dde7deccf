/**
 * The Query API's parsed body (`@pathlight/protocol` `queryApiBody`) turned into a `ReportQuery`:
 * the time zone made canonical, the range and the compared range resolved against the clock, every
 * `["is", "segment", [id]]` replaced by its saved filters, and every `matches` pattern checked with
 * RE2. What needs neither the site nor the clock the protocol has checked already.
 */
import { type QueryApiBody, type QueryApiFilter, TRAIT_FILTER } from '@pathlight/protocol'
import { listGoals } from '../goals/goals.js'
import { type Filter, regexProblem } from '../query/filters.js'
import { canonicalTimeZone } from '../query/zoned-time.js'
import { findSegment, type SegmentViewer } from '../segments/segments.js'
import { badRequest } from '../shared/errors.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { autoBucket, comparedRange, resolveDateRange } from './date-range.js'
import { conditionsIn, type FilterNode, type ReportQuery, type TimeBucket } from './report-query.js'
import { segmentNode } from './segment-filters.js'
import { traitCondition } from './trait-filters.js'

/** What building a `ReportQuery` needs besides the body. */
export interface BuildContext {
  db: MetadataDb
  siteId: number
  viewer: SegmentViewer
  nowMs: number
  /** The day (`YYYY-MM-DD` in `timeZone`) of the site's first event, null when it has none. */
  firstEventDay: (timeZone: string) => Promise<string | null>
}

/** Goals of a site `event:goal` reads (a site has far fewer). */
const MAX_GOALS = 1000

const invalid = (field: string, message: string) =>
  badRequest(`Invalid query: ${field}: ${message}`, { fieldErrors: { [field]: [message] }, formErrors: [] })

/**
 * @throws AppError 400 naming the field (a regex RE2 refuses, an unknown time zone), 404 for a
 *   segment that is not the site's or not the caller's to use
 */
export async function buildReportQuery(body: QueryApiBody, context: BuildContext): Promise<ReportQuery> {
  const timeZone = canonicalTimeZone(body.time_zone ?? 'UTC')
  if (timeZone === null) throw invalid('time_zone', 'an IANA time zone name, such as Europe/Berlin')
  const range = await resolveDateRange(body.date_range, context.nowMs, timeZone, () =>
    context.firstEventDay(timeZone),
  )
  const compare = body.include.comparisons
  const comparison = compare
    ? comparedRange(range, compare.mode, timeZone, {
        customRange: 'date_range' in compare ? compare.date_range : undefined,
        matchDayOfWeek: compare.match_day_of_week,
      })
    : null
  const filters: FilterNode[] = []
  for (const [i, filter] of body.filters.entries()) {
    filters.push(await resolveFilter(filter, context, `filters.${i}`))
  }
  for (const condition of conditionsIn(filters)) {
    if (condition.operator !== 'matches' && condition.operator !== 'matches_not') continue
    for (const pattern of condition.values) {
      const problem = regexProblem(pattern)
      if (problem !== null) throw invalid('filters', `${condition.dimension}: ${problem}`)
    }
  }
  const time = body.dimensions.find((d) => d.startsWith('time'))
  const timeBucket: TimeBucket | null =
    time === undefined ? null : time === 'time' ? autoBucket(range) : (time.slice(5) as TimeBucket)
  const defaultOrder: [string, 'asc' | 'desc'][] = time
    ? [[time, 'asc']]
    : [[body.metrics[0] as string, 'desc']]
  const usesGoals =
    body.dimensions.includes('event:goal') || conditionsIn(filters).some((c) => c.dimension === 'event:goal')
  const goals = usesGoals
    ? (await listGoals(context.db, context.siteId, { offset: 0, limit: MAX_GOALS })).goals.map((goal) => ({
        name: goal.name,
        definition:
          goal.goalType === 'path'
            ? { goalType: 'path' as const, config: goal.config }
            : { goalType: 'event' as const, config: goal.config },
      }))
    : []
  return {
    goals,
    siteId: context.siteId,
    timeZone,
    range,
    comparison,
    filters,
    dimensions: body.dimensions,
    timeBucket,
    metrics: body.metrics,
    orderBy: body.order_by ?? defaultOrder,
    limit: body.pagination.limit,
    offset: body.pagination.offset,
    include: { timeLabels: body.include.time_labels === true, totalRows: body.include.total_rows === true },
  }
}

async function resolveFilter(filter: QueryApiFilter, context: BuildContext, at: string): Promise<FilterNode> {
  switch (filter.kind) {
    case 'condition':
      if (!TRAIT_FILTER.test(filter.dimension)) return { ...filter }
      if (filter.operator === 'matches' || filter.operator === 'matches_not') {
        for (const pattern of filter.values) {
          const problem = regexProblem(pattern)
          if (problem !== null) throw invalid('filters', `${filter.dimension}: ${problem}`)
        }
      }
      return traitCondition(context.db, context.siteId, { ...filter })
    case 'segment': {
      const segment = await findSegment(context.db, context.siteId, context.viewer, filter.segmentId)
      return segmentNode(segment.filters as Filter[])
    }
    case 'not':
    case 'has_done':
    case 'has_not_done':
      return { kind: filter.kind, filter: await resolveFilter(filter.filter, context, at) }
    default: {
      const filters: FilterNode[] = []
      for (const child of filter.filters) filters.push(await resolveFilter(child, context, at))
      return { kind: filter.kind, filters }
    }
  }
}
