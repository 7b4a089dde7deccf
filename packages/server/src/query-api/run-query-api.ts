/**
 * The Query API's core, callable in-process: `runQueryApi` takes the caller's site access and the
 * parsed body (`@pathlight/protocol` `queryApiBody`) and returns the answer the route sends. The
 * route (`http/query-api.ts`) adds only the API key and the request budget. `options.rollups: false`
 * reads raw events where the rollups could answer (the tests and the bench compare both).
 */
import {
  MAX_QUERY_API_LIMIT,
  type QueryApiAnswer,
  type QueryApiBody,
  type QueryApiMetric,
  type QueryApiRow,
} from '@pathlight/protocol'
import { siteForMember } from '../auth/site-access.js'
import { runReport } from '../query/run-report.js'
import type { Clock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { buildReportQuery } from './build-report-query.js'
import { crawlerPlan, isCrawlerQuery } from './crawler-sql.js'
import { extraParts, type RevenueSeen } from './extra-parts.js'
import {
  type ImportedRow,
  importedRows,
  importsWarnings,
  mergeImportedRows,
  type OwnRow,
} from './imported-rows.js'
import { type PlannedPart, planQuery } from './plan.js'
import type { ReportQuery, ResolvedRange } from './report-query.js'
import { changeOf, roundMetric } from './round-metric.js'
import { timeLabels } from './time-labels.js'

/** What the Query API reads. */
export interface QueryApiDeps {
  db: MetadataDb
  events: EventsStore
  clock: Clock
}

/** Who asks: the user behind the API key (a member of the site's organization). */
export interface QueryApiAccess {
  userId: string
}

type Row = Record<string, unknown>

/**
 * Answer one query.
 * @throws AppError 404 when the site is not one of the caller's organizations' (or a segment not
 *   theirs), 400 naming the field for what the protocol cannot check (RE2, the time zone, a metric
 *   this server does not serve yet)
 */
export async function runQueryApi(
  deps: QueryApiDeps,
  access: QueryApiAccess,
  body: QueryApiBody,
  options: { rollups?: boolean } = {},
): Promise<QueryApiAnswer> {
  const { site } = await siteForMember(deps.db, access.userId, String(body.site_id))
  const query = await buildReportQuery(body, {
    db: deps.db,
    siteId: site.site_id,
    viewer: { userId: access.userId },
    nowMs: deps.clock(),
    firstEventDay: (timeZone) => firstEventDay(deps.events, site.site_id, timeZone),
  })
  const wantsImports = body.include.imports === true
  const importsNow = wantsImports ? await importedRows(deps.events, query, query.range) : null
  const importsBefore =
    wantsImports && query.comparison ? await importedRows(deps.events, query, query.comparison) : null
  const plan = isCrawlerQuery(query) ? crawlerPlan() : planQuery(query, options)
  // The engagement and revenue parts (`extra-parts.ts`) join every plan.
  const revenueSeen: RevenueSeen = { currencies: [] }
  plan.current.push(...extraParts(query, revenueSeen))
  plan.compared.push(...extraParts(query))
  const current =
    importsNow && 'rows' in importsNow
      ? withImported(
          query,
          await runPlan(deps.events, unpaged(query), query.range, plan.current, true),
          importsNow.rows,
        )
      : await runPlan(deps.events, query, query.range, plan.current, true)
  const ownCompared = query.comparison
    ? await runPlan(deps.events, query, query.comparison, plan.compared, false)
    : null
  const compared =
    ownCompared && importsBefore && 'rows' in importsBefore
      ? { ...ownCompared, rows: mergeImportedRows(query.metrics, ownCompared.rows, importsBefore.rows) }
      : ownCompared
  const revenueWarning = revenueWarningOf(query.metrics, revenueSeen)
  const skipReason = importsNow && 'skipReason' in importsNow ? importsNow.skipReason : undefined
  const labels = query.timeBucket ? timeLabels(query.range, query.timeBucket, query.timeZone) : []
  const comparedLabels =
    query.timeBucket && query.comparison ? timeLabels(query.comparison, query.timeBucket, query.timeZone) : []
  const timeIndex = query.dimensions.findIndex((d) => d.startsWith('time'))
  const keyOf = (dimensions: string[], labelList: string[]) =>
    JSON.stringify(dimensions.map((v, i) => (i === timeIndex ? labelList.indexOf(v) : v)))
  const previousByKey = new Map(compared?.rows.map((row) => [keyOf(row.dimensions, comparedLabels), row]))
  const results: QueryApiRow[] = current.rows.map((row) => {
    const metrics = query.metrics.map((m, i) => roundMetric(m, row.metrics[i] ?? null))
    if (!compared) return { dimensions: row.dimensions, metrics }
    const previous = previousByKey.get(keyOf(row.dimensions, labels))
    const previousMetrics = query.metrics.map((m, i) => roundMetric(m, previous?.metrics[i] ?? zeroOf(m)))
    return {
      dimensions: row.dimensions,
      metrics,
      comparison: {
        dimensions: previous?.dimensions ?? row.dimensions,
        metrics: previousMetrics,
        change: query.metrics.map((m, i) => changeOf(m, metrics[i] ?? null, previousMetrics[i] ?? null)),
      },
    }
  })
  return {
    results,
    meta: {
      time_zone: query.timeZone,
      imports_included:
        (importsNow !== null && 'rows' in importsNow) || (importsBefore !== null && 'rows' in importsBefore),
      ...(skipReason && { imports_skip_reason: skipReason }),
      ...(skipReason && importsWarnings[skipReason] && { imports_warning: importsWarnings[skipReason] }),
      ...(query.include.timeLabels && { time_labels: labels }),
      ...revenueWarning,
      ...(query.include.totalRows && { total_rows: current.totalRows }),
      ...(query.comparison && { comparison_date_range: isoRange(query.comparison, query.timeZone) }),
    },
    query: {
      site_id: body.site_id,
      metrics: body.metrics,
      date_range: isoRange(query.range, query.timeZone),
      dimensions: query.dimensions,
      filters: body.filters.length === 0 ? [] : (rawFilters(body) ?? []),
      order_by: query.orderBy,
      include: body.include,
      pagination: { limit: query.limit, offset: query.offset },
      time_zone: query.timeZone,
    },
  }
}

/**
 * Meta of the revenue totals: the one currency they are in, or Plausible's warning per metric when the
 * answer's revenue events hold several currencies (then they are null).
 */
function revenueWarningOf(metrics: readonly QueryApiMetric[], seen: RevenueSeen) {
  const totals = metrics.filter((m) => m === 'total_revenue' || m === 'average_revenue')
  if (totals.length === 0) return {}
  if (seen.currencies.length <= 1) {
    return seen.currencies[0] ? { revenue_currency: seen.currencies[0] } : {}
  }
  const warning = {
    code: 'no_single_revenue_currency',
    warning: `Revenue metrics are null as the revenue events hold several currencies (${seen.currencies.join(', ')}): ask for revenue:<CUR> per currency.`,
  }
  return { metric_warnings: Object.fromEntries(totals.map((m) => [m, warning])) }
}

/** A metric's value when a compared row is missing: 0 for counts and rates, null for means and vitals. */
const zeroOf = (metric: QueryApiMetric): number | null =>
  metric.endsWith('_p75') || ['scroll_depth', 'engaged_time', 'average_revenue'].includes(metric) ? null : 0

/** The request's filters as sent (the tree is for the SQL; the answer echoes the wire form). */
const rawFilters = (body: QueryApiBody): unknown[] | undefined =>
  (body as unknown as { rawFilters?: unknown[] }).rawFilters ?? body.filters.map(toWire)

function toWire(filter: QueryApiBody['filters'][number]): unknown {
  switch (filter.kind) {
    case 'condition':
      return [
        filter.operator,
        filter.dimension,
        filter.values,
        ...(filter.caseSensitive ? [] : [{ case_sensitive: false }]),
      ]
    case 'segment':
      return ['is', 'segment', [filter.segmentId]]
    case 'not':
    case 'has_done':
    case 'has_not_done':
      return [filter.kind, toWire(filter.filter)]
    default:
      return [filter.kind, filter.filters.map(toWire)]
  }
}

/** A range as two ISO date-times with the zone's offset at each end (the end inclusive, to the second). */
function isoRange(range: ResolvedRange, timeZone: string): [string, string] {
  return [isoIn(range.from, timeZone), isoIn(range.to - 1000, timeZone)]
}

function isoIn(epochMs: number, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    })
      .formatToParts(new Date(epochMs))
      .map((p) => [p.type, p.value]),
  )
  const offset = timeZone === 'UTC' ? 'Z' : String(parts.timeZoneName).replace('GMT', '') || '+00:00'
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`
}

/** The rows of a plan over one range, metrics in the query's order, unrounded. */
async function runPlan(
  events: EventsStore,
  query: ReportQuery,
  range: ResolvedRange,
  parts: PlannedPart[],
  paged: boolean,
): Promise<{ rows: OwnRow[]; totalRows: number }> {
  const [main, ...rest] = parts as [PlannedPart, ...PlannedPart[]]
  const mainRows = await runReport<Row>(events, main.compile(query, range), 'query-api')
  const restRows = await Promise.all(
    rest.map(async (part) => ({
      part,
      rows: await runReport<Row>(events, part.compile(query, range, mainRows), 'query-api'),
    })),
  )
  const dimensionsOf = (row: Row) => query.dimensions.map((_, i) => String(row[`d${i}`] ?? ''))
  const merged = mainRows.map((row) => {
    const figures: Row = { ...row }
    for (const { part, rows } of restRows) Object.assign(figures, part.merge(row, rows))
    return figures
  })
  let rows = merged.map((row) => ({
    dimensions: dimensionsOf(row),
    metrics: query.metrics.map((m) => figure(row, m)),
    visits: Number(row.matched_visits ?? 0),
  }))
  if (paged && !main.pagedInSql) rows = pageInMemory(query, rows)
  const totalRows = main.pagedInSql ? Number(mainRows[0]?.total_rows ?? 0) : merged.length
  return { rows, totalRows }
}

function figure(row: Row, metric: QueryApiMetric): number | null {
  if (metric.endsWith('_p75')) return Number(row[`n_${metric}`] ?? 0) === 0 ? null : Number(row[metric])
  const value = row[metric]
  return value === undefined || value === null ? null : Number(value)
}

function pageInMemory(query: ReportQuery, rows: OwnRow[]) {
  const sorted = [...rows].sort((a, b) => {
    for (const [name, direction] of query.orderBy) {
      const di = query.dimensions.indexOf(name)
      const mi = query.metrics.indexOf(name as QueryApiMetric)
      const x = di >= 0 ? a.dimensions[di] : a.metrics[mi]
      const y = di >= 0 ? b.dimensions[di] : b.metrics[mi]
      const order = (x ?? -Infinity) < (y ?? -Infinity) ? -1 : (x ?? -Infinity) > (y ?? -Infinity) ? 1 : 0
      if (order !== 0) return direction === 'asc' ? order : -order
    }
    return JSON.stringify(a.dimensions) < JSON.stringify(b.dimensions) ? -1 : 1
  })
  return sorted.slice(query.offset, query.offset + query.limit)
}

/** The query with every own row on one page (imported rows are merged, then paged in memory). */
const unpaged = (query: ReportQuery): ReportQuery => ({ ...query, limit: MAX_QUERY_API_LIMIT, offset: 0 })

/** Own rows of every page with imported rows merged, then ordered and paged as the query asks. */
function withImported(
  query: ReportQuery,
  own: { rows: OwnRow[]; totalRows: number },
  imported: ImportedRow[],
): { rows: OwnRow[]; totalRows: number } {
  const merged = mergeImportedRows(query.metrics, own.rows, imported)
  return { rows: pageInMemory(query, merged), totalRows: merged.length }
}

/** The day of a site's first event in the zone, or null. */
async function firstEventDay(events: EventsStore, siteId: number, timeZone: string): Promise<string | null> {
  const rows = await runReport<{ day: string | null; n: number }>(
    events,
    {
      sql: `SELECT toString(toDate(min(timestamp), '${timeZone}')) AS day, count() AS n FROM events WHERE site_id = {site:UInt32}`,
      params: { site: siteId },
    },
    'query-api',
  )
  return rows[0] && Number(rows[0].n) > 0 ? (rows[0].day as string) : null
}
