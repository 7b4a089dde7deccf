/**
 * The planner's choice of tables: the rollups for unfiltered visitors and visits by rolled visit
 * dimensions and time over whole hours, raw events for anything else (a filter, a figure the rollups
 * lack, a half-hour time zone), and the extra parts some metrics need.
 */
import { describe, expect, it } from 'vitest'
import { daysRange } from './date-range.js'
import { planQuery } from './plan.js'
import type { ReportQuery } from './report-query.js'

const base = (timeZone = 'UTC'): ReportQuery => ({
  siteId: 1,
  timeZone,
  range: daysRange('2026-01-01', '2026-12-31', timeZone),
  comparison: null,
  filters: [],
  dimensions: ['time:day', 'visit:country'],
  timeBucket: 'day',
  metrics: ['visitors'],
  orderBy: [['time:day', 'asc']],
  limit: 10_000,
  offset: 0,
  include: { timeLabels: false, totalRows: false },
  goals: [],
})

const sources = (query: ReportQuery, options = {}) => planQuery(query, options).current.map((p) => p.source)

describe('planQuery', () => {
  it('reads the rollups for a year of daily visitors by country', () => {
    expect(sources(base())).toEqual(['rollup'])
    expect(sources(base('America/New_York'))).toEqual(['rollup'])
    expect(sources(base(), { rollups: false })).toEqual(['raw'])
  })

  it('reads raw events with a filter, a figure the rollups lack, or a half-hour zone', () => {
    const filtered: ReportQuery = {
      ...base(),
      filters: [
        {
          kind: 'condition',
          operator: 'is',
          dimension: 'visit:country',
          values: ['DE'],
          caseSensitive: true,
        },
      ],
    }
    expect(sources(filtered)).toEqual(['raw'])
    expect(sources({ ...base(), metrics: ['pageviews'] })).toEqual(['raw'])
    expect(sources({ ...base(), dimensions: ['event:page'] })).toEqual(['raw'])
    expect(sources(base('Asia/Kolkata'))).toEqual(['raw'])
  })

  it('adds the entry-page part for bounce rate by page, and the whole for percentage', () => {
    const byPage: ReportQuery = {
      ...base(),
      dimensions: ['event:page'],
      timeBucket: null,
      metrics: ['visitors', 'bounce_rate', 'percentage'],
    }
    expect(sources(byPage)).toEqual(['raw', 'raw', 'raw'])
    const sql = planQuery(byPage).current[1]?.compile(byPage, byPage.range, [{ d0: '/' }]).sql ?? ''
    expect(sql).toContain('s_entry_page')
  })
})
