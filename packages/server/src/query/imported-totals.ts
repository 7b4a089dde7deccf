/**
 * Imported daily totals (`imported_days`, another tool's history: Plausible's CSV export) added to the
 * reports. An imported day counts in a report when it lies in the report's range and before the day
 * of the site's first own event (in the report's time zone), so a day is never counted twice; under
 * any filter imported days are left out (totals cannot be filtered by another dimension). Daily
 * totals add up as the source reported them: a visitor of two days counts on each.
 *
 * Also the table's writes: a site's import replaces its rows as a whole (`replaceImportedDays`),
 * "Remove imported data" deletes them (`deleteImportedDays`).
 */
import {
  type BreakdownMetric,
  type BreakdownRow,
  breakdownDimensions,
  breakdownMetrics,
} from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import { IMPORTED_DAYS } from '../storage/events/rollup-schema/imported-days.js'
import type { ImportedDay } from '../transfer/plausible-export.js'
import type { Breakdown, BreakdownCounts, BreakdownName } from './breakdown.js'
import type { Overview } from './overview.js'
import { relativeChange } from './previous-period.js'
import type { ReportScope } from './report-scope.js'

/** Rows per insert. */
const INSERT_ROWS = 20_000
/** Own rows a breakdown reads to merge with imported ones (the merged ranking needs the whole list). */
export const MERGED_BREAKDOWN_ROWS = 10_000

/** The days of the scope that imported totals fill: `[from, to]` as 'YYYY-MM-DD', or null for none. */
export interface ImportedSpan {
  from: string
  to: string
}

/** Delete every imported day of a site (a lightweight delete: gone from reads when it resolves). */
export async function deleteImportedDays(events: EventsStore, siteId: number): Promise<void> {
  await events.command(`DELETE FROM ${IMPORTED_DAYS} WHERE site_id = {site:UInt32}`, { site: siteId })
}

/**
 * Replace the site's imported days with `batches` (deleted first, then inserted batch by batch).
 * @returns the rows stored
 * @throws the events store's error; rows of earlier batches stay stored (importing again replaces them)
 */
export async function replaceImportedDays(
  events: EventsStore,
  siteId: number,
  batches: AsyncIterable<readonly ImportedDay[]> | Iterable<readonly ImportedDay[]>,
): Promise<number> {
  await deleteImportedDays(events, siteId)
  let stored = 0
  let pending: ImportedDay[] = []
  const flush = async () => {
    if (pending.length === 0) return
    const rows = pending
    pending = []
    const column = <K extends keyof ImportedDay>(key: K) => rows.map((row) => row[key])
    await events.command(
      `INSERT INTO ${IMPORTED_DAYS} (site_id, dimension, day, value, visitors, visits, pageviews, bounces, visit_duration, events)
       SELECT {site:UInt32}, d[i], toDate(y[i]), v[i], c1[i], c2[i], c3[i], c4[i], c5[i], c6[i]
       FROM (SELECT {d:Array(String)} AS d, {y:Array(String)} AS y, {v:Array(String)} AS v,
         {c1:Array(UInt64)} AS c1, {c2:Array(UInt64)} AS c2, {c3:Array(UInt64)} AS c3,
         {c4:Array(UInt64)} AS c4, {c5:Array(UInt64)} AS c5, {c6:Array(UInt64)} AS c6,
         arrayJoin(arrayEnumerate(d)) AS i)`,
      {
        site: siteId,
        d: column('dimension'),
        y: column('day'),
        v: column('value'),
        c1: column('visitors'),
        c2: column('visits'),
        c3: column('pageviews'),
        c4: column('bounces'),
        c5: column('visit_duration'),
        c6: column('events'),
      },
    )
    stored += rows.length
  }
  for await (const batch of batches) {
    pending.push(...batch)
    if (pending.length >= INSERT_ROWS) await flush()
  }
  await flush()
  return stored
}

/**
 * The first and last imported day of a site (its `visitors` rows, which every import has), or null
 * when it has none: what a report that cannot use daily totals says it leaves out.
 */
export async function importedDayRange(events: EventsStore, siteId: number): Promise<ImportedSpan | null> {
  const [row] = await events.query<{ n: number | string; first: string; last: string }>(
    `SELECT count() AS n, toString(min(day)) AS first, toString(max(day)) AS last FROM ${IMPORTED_DAYS}
     WHERE site_id = {site:UInt32} AND dimension = 'visitors'`,
    { site: siteId },
    { label: 'imported-totals' },
  )
  return row && Number(row.n) > 0 ? { from: row.first, to: row.last } : null
}

/**
 * The imported days the scope reads: those of its range before the site's first own event; null when
 * there are none or the scope has filters.
 */
export async function importedSpan(events: EventsStore, scope: ReportScope): Promise<ImportedSpan | null> {
  if (scope.params.filters.length > 0) return null
  const { startDate, endDate, timeZone } = scope.params
  const [span] = await events.query<{ n: number | string; first: string; last: string }>(
    `SELECT count() AS n, toString(min(day)) AS first, toString(max(day)) AS last FROM ${IMPORTED_DAYS}
     WHERE site_id = {site:UInt32} AND dimension = 'visitors'
       AND day >= toDate({start:String}) AND day <= toDate({end:String})`,
    { site: scope.siteId, start: startDate, end: endDate },
    { label: 'imported-totals' },
  )
  if (!span || Number(span.n) === 0) return null
  const [own] = await events.query<{ n: number | string; first: string }>(
    `SELECT count() AS n, toString(toDate(min(timestamp), {tz:String})) AS first FROM events
     WHERE site_id = {site:UInt32} AND timestamp < toDateTime64(toDate({last:String}) + 1, 3, {tz:String})`,
    { site: scope.siteId, last: span.last, tz: timeZone },
    { label: 'imported-totals' },
  )
  if (!own || Number(own.n) === 0) return { from: span.first, to: span.last }
  const beforeOwn = previousDay(own.first)
  return beforeOwn < span.first
    ? null
    : { from: span.first, to: beforeOwn < span.last ? beforeOwn : span.last }
}

/** The imported days' totals: the overview's counts and the custom events. */
export interface ImportedTotals {
  visitors: number
  visits: number
  pageviews: number
  bounces: number
  visit_duration: number
  events: number
}

/** The sums of the imported days of `span`. */
export async function importedTotals(
  events: EventsStore,
  siteId: number,
  span: ImportedSpan,
): Promise<ImportedTotals> {
  const [row] = await events.query<Record<keyof ImportedTotals, number | string>>(
    `SELECT sumIf(visitors, dimension = 'visitors') AS visitors, sumIf(visits, dimension = 'visitors') AS visits,
       sumIf(pageviews, dimension = 'visitors') AS pageviews, sumIf(bounces, dimension = 'visitors') AS bounces,
       sumIf(visit_duration, dimension = 'visitors') AS visit_duration,
       sumIf(events, dimension = 'custom_events') AS events
     FROM ${IMPORTED_DAYS}
     WHERE site_id = {site:UInt32} AND dimension IN ('visitors', 'custom_events')
       AND day >= toDate({from:String}) AND day <= toDate({to:String})`,
    { site: siteId, from: span.from, to: span.to },
    { label: 'imported-totals' },
  )
  const number = (key: keyof ImportedTotals) => Number(row?.[key] ?? 0)
  return {
    visitors: number('visitors'),
    visits: number('visits'),
    pageviews: number('pageviews'),
    bounces: number('bounces'),
    visit_duration: number('visit_duration'),
    events: number('events'),
  }
}

/**
 * An overview (and its custom event count) with imported totals added: counts summed; bounce rate,
 * session duration and pages per session weighted by sessions (the imported days' visits).
 */
export function addImportedTotals<T extends Overview & { events: number }>(
  own: T,
  imported: ImportedTotals,
): T {
  const sessions = own.sessions + imported.visits
  const weighted = (ownMean: number, importedSum: number) =>
    sessions === 0 ? 0 : (ownMean * own.sessions + importedSum) / sessions
  return {
    ...own,
    visitors: own.visitors + imported.visitors,
    sessions,
    pageviews: own.pageviews + imported.pageviews,
    bounce_rate: weighted(own.bounce_rate, imported.bounces),
    session_duration: weighted(own.session_duration, imported.visit_duration),
    pages_per_session: weighted(own.pages_per_session, imported.pageviews),
    events: own.events + imported.events,
  }
}

/** Breakdowns imported totals hold (the others, such as channels or cities, read own events only). */
export const IMPORTED_BREAKDOWNS: ReadonlySet<BreakdownName> = new Set([
  'pages',
  'entry_pages',
  'exit_pages',
  'referrers',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'countries',
  'device_types',
  'browsers',
  'operating_systems',
])

/** The imported rows of one breakdown over `span`: visitors, sessions (visits) and pageviews per value. */
export async function importedBreakdownRows(
  events: EventsStore,
  siteId: number,
  name: BreakdownName,
  span: ImportedSpan,
): Promise<Required<Pick<BreakdownRow, 'value' | 'visitors' | 'sessions' | 'pageviews'>>[]> {
  const rows = await events.query<{ value: string; visitors: number; sessions: number; pageviews: number }>(
    `SELECT value, sum(visitors) AS visitors, sum(visits) AS sessions, sum(pageviews) AS pageviews
     FROM ${IMPORTED_DAYS}
     WHERE site_id = {site:UInt32} AND dimension = {dimension:String}
       AND day >= toDate({from:String}) AND day <= toDate({to:String})
     GROUP BY value`,
    { site: siteId, dimension: name, from: span.from, to: span.to },
    { label: 'imported-totals' },
  )
  return rows.map((row) => ({
    value: row.value,
    visitors: Number(row.visitors),
    sessions: Number(row.sessions),
    pageviews: Number(row.pageviews),
  }))
}

/**
 * A breakdown page with imported rows merged in: `own` answers the scope's breakdown (called with the
 * first `MERGED_BREAKDOWN_ROWS` rows when imported days apply, else with the scope as asked), rows of
 * one value summed, ranked as the dimension ranks (pageviews for pages, else visitors; then value),
 * then paged as the scope asks.
 */
export async function withImportedBreakdown(
  events: EventsStore,
  scope: ReportScope,
  name: BreakdownName,
  metrics: BreakdownCounts | undefined,
  own: (scope: ReportScope) => Promise<Breakdown>,
): Promise<Breakdown> {
  const span = IMPORTED_BREAKDOWNS.has(name) ? await importedSpan(events, scope) : null
  if (!span) return own(scope)
  const [mine, imported] = await Promise.all([
    own({ ...scope, params: { ...scope.params, page: 1, limit: MERGED_BREAKDOWN_ROWS } }),
    importedBreakdownRows(events, scope.siteId, name, span),
  ])
  const rank = breakdownDimensions[name].metric
  const counts = new Set<BreakdownMetric>(metrics ?? breakdownMetrics)
  counts.add(rank)
  const merged = new Map<string, BreakdownRow>()
  for (const row of [...mine.rows, ...imported]) {
    const seen = merged.get(row.value) ?? { value: row.value }
    for (const count of counts) {
      seen[count] = (seen[count] ?? 0) + (row[count] ?? 0)
    }
    merged.set(row.value, seen)
  }
  const rows = [...merged.values()].sort(
    (a, b) => (b[rank] ?? 0) - (a[rank] ?? 0) || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
  )
  const { page, limit } = scope.params
  return { rows: rows.slice((page - 1) * limit, page * limit), total: rows.length }
}

function previousDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() - 1)
  return date.toISOString().slice(0, 10)
}

/** The stats report's figures: `current`, and with a comparison `previous` and `change`. */
interface StatsFigures<T> {
  data: { current: T; previous?: T; change?: unknown }
}

/**
 * The stats report with imported totals added to its range's figures and, with a comparison, to the
 * compared range's (`previous`, then `change` again). The series has them already (`queryTimeseries`).
 */
export async function withImportedStats<T extends Overview & { events: number }, R extends StatsFigures<T>>(
  events: EventsStore,
  scope: ReportScope,
  compared: ReportScope['params'] | null,
  report: R,
): Promise<R> {
  const add = async (one: ReportScope, own: T) => {
    const span = await importedSpan(events, one)
    return span ? addImportedTotals(own, await importedTotals(events, one.siteId, span)) : own
  }
  const { previous } = report.data
  const [current, before] = await Promise.all([
    add(scope, report.data.current),
    previous && compared ? add({ ...scope, params: compared }, previous) : Promise.resolve(previous),
  ])
  if (current === report.data.current && before === previous) return report
  const data = { ...report.data, current }
  if (before) Object.assign(data, { previous: before, change: relativeChange(current, before) })
  return { ...report, data }
}
