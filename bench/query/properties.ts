/**
 * What the custom property reports cost: synthetic events (`generate-events.ts`: a quarter of the
 * sessions carry a custom event with `{plan, seats}`) loaded into an embedded chDB store, then over the
 * busiest site (40 % of the events) the property breakdown (`property=plan`, and `seats` for the
 * custom event `signup`), the keys report, a property filter on the overview's stats, and the same
 * breakdown read from the JSON text as before `property_map` existed, timed next to a `count()` of
 * the same custom events (the floor: the scan of the range alone). Two data sets, one after the
 * other, each in its own directory:
 * - `BENCH_EVENTS` (default 10,000,000) over `BENCH_DAYS` (default 30) days, reports over the last 30;
 * - `BENCH_YEAR_EVENTS` (default 2,000,000) over 365 days, reports over the 365.
 * Run from the repository root:
 *
 *   npx tsx bench/query/properties.ts
 *   BENCH_EVENTS=2000000 BENCH_YEAR_EVENTS=1000000 BENCH_ITERATIONS=10 npx tsx bench/query/properties.ts
 *
 * Environment: also `BENCH_ITERATIONS` (default 15, after 2 warm-ups), `BENCH_BATCH` rows per insert
 * (default 100,000), `BENCH_OPTIMIZE` (default 1: merge the events' parts after loading, as background
 * merges would; 0 skips). Progress on stderr; a table, then the figures as one JSON line. Target: p95
 * under 300 ms for both breakdowns.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseQueryParams } from '../../packages/server/src/query/params.js'
import { queryPropertyBreakdown } from '../../packages/server/src/query/property-breakdown.js'
import { customEventConditions, queryPropertyKeys } from '../../packages/server/src/query/property-keys.js'
import type { ReportScope } from '../../packages/server/src/query/report-scope.js'
import { queryStatsReport } from '../../packages/server/src/query/stats-report.js'
import { openChdbStore } from '../../packages/server/src/storage/events/chdb-store.js'
import type { EventsStore } from '../../packages/server/src/storage/events/events-store.js'
import { positiveInteger } from '../positive-integer.js'
import { generateEvents, loadVocabulary } from './generate-events.js'
import { measure } from './timing.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const demoLog = path.resolve(here, '../../packages/server/demo-data/elastic-examples-apache_logs.txt')
const monthEvents = positiveInteger('BENCH_EVENTS', 10_000_000)
const monthDays = positiveInteger('BENCH_DAYS', 30)
const yearEvents = positiveInteger('BENCH_YEAR_EVENTS', 2_000_000)
const iterations = positiveInteger('BENCH_ITERATIONS', 15)
const batchSize = positiveInteger('BENCH_BATCH', 100_000)
const optimize = process.env.BENCH_OPTIMIZE !== '0'
const END = new Date('2026-04-01T00:00:00.000Z')
const SITE = 1
const TARGET_P95_MS = 300

const log = (message: string) => process.stderr.write(`[bench:properties] ${message}\n`)
const fmt = (ms: number) => (ms < 10 ? ms.toFixed(1) : ms.toFixed(0))

/** The breakdown as it was read before `property_map`: the canonical text parsed from the JSON. */
async function jsonBreakdown(events: EventsStore, scope: ReportScope, key: string) {
  const { where, params } = customEventConditions(scope, undefined)
  const k = '{property_key:String}'
  const value =
    `multiIf(JSONType(properties, ${k}) = 'String', JSONExtractString(properties, ${k}), ` +
    `JSONType(properties, ${k}) IN ('Int64', 'UInt64', 'Double'), toString(JSONExtractFloat(properties, ${k})), ` +
    `JSONExtractRaw(properties, ${k}))`
  return events.query(
    `SELECT ${value} AS property_value, count() AS events, uniq(user_id) AS visitors,
       count() OVER () AS total_values
     FROM events WHERE ${where.join(' AND ')} AND JSONHas(properties, ${k})
     GROUP BY property_value ORDER BY events DESC, property_value ASC LIMIT 50`,
    { ...params, property_key: key },
  )
}

/** The floor: a count of the scope's custom events. */
async function baseline(events: EventsStore, scope: ReportScope) {
  const { where, params } = customEventConditions(scope, undefined)
  return events.query(`SELECT count() AS n FROM events WHERE ${where.join(' AND ')}`, params)
}

interface Figure {
  dataSet: string
  report: string
  p50: number
  p95: number
  cpu: number
}

/** Load `totalEvents` over `days` days into a fresh store and time the reports over its last `days`. */
async function runDataSet(name: string, totalEvents: number, days: number): Promise<Figure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-bench-properties-'))
  const events = await openChdbStore(dir)
  try {
    const loadStart = performance.now()
    const rows = await generateEvents({
      totalEvents,
      days,
      end: END,
      batchSize,
      vocabulary: loadVocabulary(demoLog),
      sink: (batch) => events.insert(batch),
    })
    log(
      `${name}: loaded ${rows.toLocaleString('en')} rows in ${((performance.now() - loadStart) / 1000).toFixed(1)} s`,
    )
    if (optimize) {
      const start = performance.now()
      await events.command('OPTIMIZE TABLE events FINAL')
      log(`${name}: merged parts in ${((performance.now() - start) / 1000).toFixed(1)} s`)
    }
    const endDate = new Date(END.getTime() - 86_400_000).toISOString().slice(0, 10)
    const startDate = new Date(END.getTime() - days * 86_400_000).toISOString().slice(0, 10)
    const scopeOf = (query: Record<string, string> = {}): ReportScope => ({
      siteId: SITE,
      params: parseQueryParams({ start_date: startDate, end_date: endDate, ...query }, END.getTime()),
    })
    const [counts] = await events.query<{ site: number; custom: number }>(
      `SELECT countIf(site_id = {site:UInt32}) AS site,
         countIf(site_id = {site:UInt32} AND type = 'custom_event') AS custom FROM events`,
      { site: SITE },
    )
    log(`${name}: site ${SITE} holds ${counts?.site} events, ${counts?.custom} custom`)
    const proFilter = JSON.stringify([{ parameter: 'properties.plan', type: 'equals', value: ['pro'] }])
    const reports: [string, () => Promise<unknown>][] = [
      ['count() of the custom events (baseline)', () => baseline(events, scopeOf())],
      ['property breakdown (plan)', () => queryPropertyBreakdown(events, scopeOf(), 'plan')],
      [
        'property breakdown (seats of signup)',
        () => queryPropertyBreakdown(events, scopeOf(), 'seats', 'signup'),
      ],
      ['property keys', () => queryPropertyKeys(events, scopeOf())],
      ['stats filtered by properties.plan', () => queryStatsReport(events, scopeOf({ filters: proFilter }))],
      ['property breakdown (plan) from JSON text', () => jsonBreakdown(events, scopeOf(), 'plan')],
    ]
    const figures: Figure[] = []
    for (const [report, run] of reports) {
      const timing = await measure(run, iterations)
      figures.push({ dataSet: name, report, ...timing })
      log(`${name}: ${report}: p50 ${fmt(timing.p50)} ms, p95 ${fmt(timing.p95)} ms`)
    }
    return figures
  } finally {
    await events.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

async function main() {
  const month = `${(monthEvents / 1e6).toLocaleString('en')} M events, last ${monthDays} days`
  const year = `${(yearEvents / 1e6).toLocaleString('en')} M events, 365 days`
  const figures = [
    ...(await runDataSet(month, monthEvents, monthDays)),
    ...(await runDataSet(year, yearEvents, 365)),
  ]
  console.log('| data set | report | p50 ms | p95 ms | CPU ms/run |')
  console.log('|---|---|---:|---:|---:|')
  for (const f of figures)
    console.log(`| ${f.dataSet} | ${f.report} | ${fmt(f.p50)} | ${fmt(f.p95)} | ${fmt(f.cpu)} |`)
  const breakdowns = figures.filter((f) => f.report === 'property breakdown (plan)')
  const met = breakdowns.every((f) => f.p95 < TARGET_P95_MS)
  console.log(`\nTarget p95 < ${TARGET_P95_MS} ms for the property breakdown: ${met ? 'met' : 'NOT met'}`)
  console.log(JSON.stringify({ iterations, optimize, figures }))
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
