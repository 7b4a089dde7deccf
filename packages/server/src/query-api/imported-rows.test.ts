/**
 * `mergeImportedRows` and `unsupportedReason` on their own: counts summed by equal dimension values,
 * the session means weighted by visits (checked against the sums they stand for), rows of one side
 * kept; and the queries imported days cannot answer, with Plausible's reasons.
 */
import { describe, expect, it } from 'vitest'
import { type ImportedRow, mergeImportedRows, unsupportedReason } from './imported-rows.js'
import type { ReportQuery } from './report-query.js'

const counts = (visitors: number, visits: number, pageviews: number, bounces: number, seconds: number) => ({
  visitors,
  visits,
  pageviews,
  bounces,
  visit_duration: seconds,
  events: pageviews,
})

describe('mergeImportedRows', () => {
  it('sums counts and weights the session means by visits', () => {
    // Own: 4 visits, 1 of them a bounce, 100 s in all, 10 pageviews.
    const own = [{ dimensions: ['2024-02-20'], metrics: [3, 4, 25, 25, 2.5], visits: 4 }]
    const imported: ImportedRow[] = [
      { dimensions: ['2024-02-20'], counts: counts(5, 6, 12, 3, 60) },
      { dimensions: ['2024-02-19'], counts: counts(2, 2, 2, 2, 0) },
    ]
    const merged = mergeImportedRows(
      ['visitors', 'visits', 'bounce_rate', 'visit_duration', 'views_per_visit'],
      own,
      imported,
    )
    expect(merged).toEqual([
      {
        dimensions: ['2024-02-20'],
        metrics: [3 + 5, 4 + 6, (100 * (1 + 3)) / 10, (100 + 60) / 10, (10 + 12) / 10],
        visits: 10,
      },
      { dimensions: ['2024-02-19'], metrics: [2, 2, 100, 0, 1], visits: 2 },
    ])
  })
})

describe('unsupportedReason', () => {
  const base = {
    filters: [],
    dimensions: [],
    metrics: ['visitors'],
    timeBucket: null,
  } as unknown as ReportQuery
  const days = { from: 0, to: 1, days: { firstDay: '2024-02-01', lastDay: '2024-02-29' } }
  it('names what daily totals cannot answer', () => {
    expect(unsupportedReason(base, days)).toBeNull()
    expect(unsupportedReason({ ...base, dimensions: ['time:hour'], timeBucket: 'hour' }, days)).toBe(
      'unsupported_interval',
    )
    expect(
      unsupportedReason({ ...base, days: null } as unknown as ReportQuery, { ...days, days: null }),
    ).toBe('unsupported_query')
    expect(unsupportedReason({ ...base, dimensions: ['visit:city'] }, days)).toBe('unsupported_query')
    expect(unsupportedReason({ ...base, dimensions: ['visit:country', 'event:page'] }, days)).toBe(
      'unsupported_query',
    )
    expect(unsupportedReason({ ...base, dimensions: ['event:page'], metrics: ['bounce_rate'] }, days)).toBe(
      'unsupported_query',
    )
    expect(
      unsupportedReason({ ...base, dimensions: ['time:day', 'visit:os'], timeBucket: 'day' }, days),
    ).toBeNull()
  })
})
