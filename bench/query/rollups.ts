/**
 * The rollups' part of the query benchmark (issue 16): each report the rollups serve, unfiltered,
 * timed as it runs (from the rollups) and with `rollups: false` (raw events) in the same run, the
 * ratio, whether the two answers agree (exact figures equal; visitors and sessions of event
 * breakdowns within 1 %), and the rollup tables' rows and bytes on disk next to the events table's.
 */
import { queryBreakdown } from '../../packages/server/src/query/breakdown.js'
import { queryCustomEventCount } from '../../packages/server/src/query/custom-event-count.js'
import { queryEventNames } from '../../packages/server/src/query/event-names.js'
import { queryOverview } from '../../packages/server/src/query/overview.js'
import { parseQueryParams } from '../../packages/server/src/query/params.js'
import type { ReportScope } from '../../packages/server/src/query/report-scope.js'
import { queryTimeseries } from '../../packages/server/src/query/timeseries.js'
import type { EventsStore } from '../../packages/server/src/storage/events/events-store.js'
import { EVERY_ROLLUP_TABLE } from '../../packages/server/src/storage/events/rollup-tables.js'
import { measure } from './timing.js'

/** One rollup-served report. */
interface RolledReport {
  name: string
  run(events: EventsStore, scope: ReportScope): Promise<unknown>
}

const breakdown = (name: Parameters<typeof queryBreakdown>[2]): RolledReport => ({
  name: `breakdown ${name}`,
  run: (events, scope) => queryBreakdown(events, scope, name),
})

/** The reports the rollups serve: the overview page's, and the breakdowns a click away. */
export const rolledReports: RolledReport[] = [
  { name: 'overview', run: queryOverview },
  { name: 'custom event count', run: queryCustomEventCount },
  { name: 'series (day)', run: (events, scope) => queryTimeseries(events, scope, 'day') },
  breakdown('pages'),
  {
    // The overview's pages card asks for its first 8 rows (the rows above are the API's default 50).
    name: 'breakdown pages, 8 rows',
    run: (events, scope) =>
      queryBreakdown(events, { ...scope, params: { ...scope.params, limit: 8 } }, 'pages'),
  },
  {
    // The same with the one count the card shows (`metrics`): no visitor or session state merged.
    name: 'breakdown pages, 8 rows, pageviews',
    run: (events, scope) =>
      queryBreakdown(events, { ...scope, params: { ...scope.params, limit: 8 } }, 'pages', ['pageviews']),
  },
  breakdown('countries'),
  breakdown('browsers'),
  breakdown('operating_systems'),
  { name: 'event names', run: queryEventNames },
  breakdown('channels'),
  breakdown('entry_pages'),
  breakdown('exit_pages'),
  breakdown('referrers'),
  breakdown('regions'),
  breakdown('cities'),
  breakdown('languages'),
  breakdown('utm_source'),
  breakdown('utm_campaign'),
]

/** One report over one range, both ways. */
export interface RollupFigure {
  report: string
  days: number
  rolled: { p50: number; p95: number }
  raw: { p50: number; p95: number }
  /** raw p50 / rolled p50 */
  speedup: number
  /** Largest relative difference between the two answers' numbers (0 = identical). */
  maxDifference: number
}

/** Time each rolled report whose name `match`es over the last `days` of `end` per range, rolled and raw. */
export async function measureRollups(
  events: EventsStore,
  siteId: number,
  end: Date,
  ranges: readonly number[],
  iterations: number,
  log: (message: string) => void,
  match: RegExp = /./,
): Promise<RollupFigure[]> {
  const figures: RollupFigure[] = []
  for (const days of ranges) {
    const startDate = new Date(end.getTime() - days * 86_400_000).toISOString().slice(0, 10)
    const endDate = new Date(end.getTime() - 86_400_000).toISOString().slice(0, 10)
    const params = parseQueryParams({ start_date: startDate, end_date: endDate }, end.getTime())
    const rolledScope: ReportScope = { siteId, params }
    const rawScope: ReportScope = { siteId, params, rollups: false }
    for (const report of rolledReports.filter((r) => match.test(r.name))) {
      const rolled = await measure(() => report.run(events, rolledScope), iterations)
      const raw = await measure(() => report.run(events, rawScope), iterations)
      const maxDifference = difference(
        await report.run(events, rolledScope),
        await report.run(events, rawScope),
      )
      const figure = { report: report.name, days, rolled, raw, speedup: raw.p50 / rolled.p50, maxDifference }
      figures.push(figure)
      log(
        `${days} d ${report.name}: rollups p95 ${rolled.p95.toFixed(0)} ms, raw p95 ${raw.p95.toFixed(0)} ms`,
      )
    }
  }
  return figures
}

/**
 * Largest relative difference between numbers at the same place in two JSON-like values; rows of a
 * breakdown are matched by their `value` (or `name`), as estimates may order close rows differently.
 */
function difference(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') {
    return a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b))
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const keyOf = (row: unknown, index: number) => {
      const record = row as Record<string, unknown> | null
      return String(record?.value ?? record?.name ?? record?.time ?? index)
    }
    const byKey = new Map(b.map((row, index) => [keyOf(row, index), row]))
    return Math.max(0, ...a.map((row, index) => difference(row, byKey.get(keyOf(row, index)))))
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    let max = 0
    for (const key of Object.keys(a)) {
      max = Math.max(
        max,
        difference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
      )
    }
    return max
  }
  return a === b ? 0 : 1
}

/** Rows and bytes on disk of the events table and the rollup tables. */
export async function tableSizes(
  events: EventsStore,
): Promise<{ table: string; rows: number; bytes: number }[]> {
  const rows = await events.query<{ table: string; rows: number | string; bytes: number | string }>(
    `SELECT table, sum(rows) AS rows, sum(bytes_on_disk) AS bytes FROM system.parts
     WHERE active AND table IN ('events', ${EVERY_ROLLUP_TABLE.map((t) => `'${t}'`).join(', ')}) GROUP BY table ORDER BY table`,
  )
  return rows.map((row) => ({ table: row.table, rows: Number(row.rows), bytes: Number(row.bytes) }))
}

/** Print the figures as a table. */
export function printRollupTable(figures: readonly RollupFigure[]): void {
  const header = [
    'report',
    'days',
    'rollups p50',
    'rollups p95',
    'raw p50',
    'raw p95',
    'speed-up',
    'max diff',
  ]
  const ms = (value: number) => `${value < 10 ? value.toFixed(1) : value.toFixed(0)} ms`
  const lines = figures.map((f) => [
    f.report,
    String(f.days),
    ms(f.rolled.p50),
    ms(f.rolled.p95),
    ms(f.raw.p50),
    ms(f.raw.p95),
    `${f.speedup.toFixed(2)}x`,
    `${(f.maxDifference * 100).toFixed(2)} %`,
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)))
  const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`
  console.log(row(header))
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`)
  for (const line of lines) console.log(row(line))
}
