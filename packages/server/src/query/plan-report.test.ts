/**
 * The reports' table decision (`planReport`), table-driven: each row a scope (range, zone, filters,
 * opt-out) and an ask, and the source and tables expected with the reason's gist. The reports' own
 * tests (overview, breakdown, timeseries, pages, previous period, compared, rollups) check that the
 * answers from either source are the same.
 */
import { describe, expect, it } from 'vitest'
import { parseQueryParams } from './params.js'
import { planReport, type ReportAsk, rolledWindow } from './plan-report.js'
import type { ReportScope } from './report-scope.js'

const filters = (...list: [string, string, string[]][]) => ({
  filters: JSON.stringify(list.map(([parameter, type, value]) => ({ parameter, type, value }))),
})

const scope = (query: Record<string, string> = {}, rollups?: boolean): ReportScope => ({
  siteId: 1,
  params: parseQueryParams({ start_date: '2026-03-01', end_date: '2026-03-31', ...query }, 0),
  ...(rollups === undefined ? {} : { rollups }),
})

const gapped = scope({ start_date: '2026-01-28', end_date: '2026-02-27' })
const adjoining = scope({ start_date: '2026-01-30', end_date: '2026-02-28' })

interface Row {
  name: string
  scope: ReportScope
  ask: ReportAsk
  source: 'rollups' | 'raw'
  tables?: string[]
  reason?: RegExp
  sealedMonths?: boolean
}

const rows: Row[] = [
  {
    name: 'the overview, unfiltered',
    scope: scope(),
    ask: { kind: 'sessions' },
    source: 'rollups',
    tables: ['session_summaries', 'session_hours', 'session_changes'],
  },
  {
    name: 'the overview in a whole-hour zone',
    scope: scope({ time_zone: 'America/New_York' }),
    ask: { kind: 'sessions' },
    source: 'rollups',
  },
  {
    name: 'the overview in a half-hour zone',
    scope: scope({ time_zone: 'Asia/Kolkata' }),
    ask: { kind: 'sessions' },
    source: 'raw',
    tables: ['events'],
    reason: /whole UTC hours/,
  },
  {
    name: 'the overview with rollups switched off',
    scope: scope({}, false),
    ask: { kind: 'sessions' },
    source: 'raw',
    reason: /switched off/,
  },
  {
    name: 'the overview filtered',
    scope: scope(filters(['browser', 'equals', ['Chrome']])),
    ask: { kind: 'sessions' },
    source: 'raw',
    reason: /filtered/,
  },
  {
    name: 'the channels breakdown',
    scope: scope(),
    ask: { kind: 'sessions', column: 'entry_channel' },
    source: 'rollups',
  },
  {
    name: 'the entry pages breakdown',
    scope: scope(),
    ask: { kind: 'sessions', column: 'entry_page' },
    source: 'rollups',
  },
  {
    name: 'a session breakdown by a column the session rollups lack',
    scope: scope(),
    ask: { kind: 'sessions', column: 'entry_browser' },
    source: 'raw',
    reason: /do not keep entry_browser/,
  },
  {
    name: 'the browsers breakdown filtered to some browsers',
    scope: scope(filters(['browser', 'equals', ['Chrome', 'Firefox']])),
    ask: { kind: 'dimension', column: 'browser' },
    source: 'rollups',
    tables: ['session_dimension_hours'],
  },
  {
    name: 'the browsers breakdown filtered by country',
    scope: scope(filters(['country', 'equals', ['DE']])),
    ask: { kind: 'dimension', column: 'browser' },
    source: 'raw',
    reason: /another column/,
  },
  {
    name: 'the pages breakdown',
    scope: scope(),
    ask: { kind: 'dimension', column: 'pathname' },
    source: 'rollups',
    tables: ['page_months', 'page_days', 'event_hours'],
    sealedMonths: true,
  },
  {
    name: 'the custom event names',
    scope: scope(),
    ask: { kind: 'dimension', column: 'event_name' },
    source: 'rollups',
    tables: ['event_hours'],
  },
  {
    name: 'a breakdown by a column no rollup keeps',
    scope: scope(),
    ask: { kind: 'dimension', column: 'hostname' },
    source: 'raw',
    reason: /do not keep hostname/,
  },
  {
    name: 'the custom event count',
    scope: scope(),
    ask: { kind: 'events' },
    source: 'rollups',
    tables: ['event_hours'],
  },
  { name: 'a daily series', scope: scope(), ask: { kind: 'series', unit: 'day' }, source: 'rollups' },
  { name: 'an hourly series', scope: scope(), ask: { kind: 'series', unit: 'hour' }, source: 'rollups' },
  {
    name: 'a series by minute',
    scope: scope({ start_date: '2026-03-01', end_date: '2026-03-01' }),
    ask: { kind: 'series', unit: 'minute' },
    source: 'raw',
    reason: /minute/,
  },
  {
    name: 'a daily series in Lord Howe time across its half-hour offset change',
    scope: scope({ time_zone: 'Australia/Lord_Howe', start_date: '2026-04-01', end_date: '2026-04-10' }),
    ask: { kind: 'series', unit: 'day' },
    source: 'raw',
  },
  {
    name: 'the v1 pages report',
    scope: scope(),
    ask: { kind: 'pages' },
    source: 'rollups',
    sealedMonths: true,
  },
  {
    name: 'the v1 pages report filtered',
    scope: scope(filters(['pathname', 'contains', ['blog']])),
    ask: { kind: 'pages' },
    source: 'raw',
  },
  {
    name: 'two adjoining unfiltered periods',
    scope: scope(),
    ask: { kind: 'periods', previous: adjoining },
    source: 'rollups',
  },
  {
    name: 'two periods with a gap',
    scope: scope(),
    ask: { kind: 'periods', previous: gapped },
    source: 'raw',
    reason: /adjoin/,
  },
  {
    name: 'two periods, the previous one opted out',
    scope: scope(),
    ask: { kind: 'periods', previous: { ...adjoining, rollups: false } },
    source: 'raw',
    reason: /switched off/,
  },
]

describe('planReport', () => {
  for (const row of rows) {
    it(`${row.name}: ${row.source}`, () => {
      const plan = planReport(row.scope, row.ask)
      expect(plan.source).toBe(row.source)
      if (row.tables) expect(plan.tables).toEqual(row.tables)
      if (row.reason) expect(plan.reason).toMatch(row.reason)
      expect(plan.sealedMonths).toBe(row.sealedMonths ?? false)
      expect(plan.reason.length).toBeGreaterThan(0)
    })
  }

  it('the adjoining previous period ends where the range starts (the rows above rely on it)', () => {
    expect(adjoining.params.to).toBe(scope().params.from)
    expect(gapped.params.to).not.toBe(scope().params.from)
  })

  it('rolledWindow, the range rule the Query API shares', () => {
    const hour = 3_600_000
    expect(rolledWindow({ ranges: [{ from: 0, to: 24 * hour }] })).toBeNull()
    expect(rolledWindow({ ranges: [{ from: 0, to: 24 * hour }], rollups: false })).toMatch(/switched off/)
    expect(
      rolledWindow({
        ranges: [
          { from: 0, to: 24 * hour },
          { from: hour / 2, to: hour },
        ],
      }),
    ).toMatch(/whole UTC hours/)
  })
})
