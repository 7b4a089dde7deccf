/**
 * The journeys query's compile step (SQL pinned, every value bound) and the links of a list of
 * journeys. Figures on real data: `http/journeys.test.ts`.
 */
import { describe, expect, it } from 'vitest'
import { compileJourneys, journeyLinks } from './journeys.js'
import { EVENT_ORDER_KEY } from './metrics.js'
import type { ReportScope } from './report-scope.js'

const scope: ReportScope = {
  siteId: 7,
  params: {
    startDate: '2026-03-01',
    endDate: '2026-03-31',
    timeZone: 'UTC',
    from: Date.parse('2026-03-01T00:00:00Z'),
    to: Date.parse('2026-04-01T00:00:00Z'),
    filters: [],
    page: 1,
    limit: 50,
  },
}

describe('compileJourneys', () => {
  it('groups collapsed, cut page sequences of sessions, all values bound', () => {
    const compiled = compileJourneys(scope, { steps: 4, limit: 20 })
    expect(compiled.sql).toBe(
      [
        'SELECT path, count() AS sessions,',
        '  count() OVER () AS total_paths, sum(count()) OVER () AS total_sessions',
        'FROM (',
        '  SELECT arraySlice(seq, 1, {steps:UInt8}) AS path',
        '  FROM (',
        '    SELECT arrayFilter((p, i) -> i = 1 OR p != pages[i - 1], pages, arrayEnumerate(pages)) AS seq',
        '    FROM (',
        `SELECT cityHash64(session_id) AS session_key, arraySort((p, k) -> k, groupArray(pathname), groupArray(${EVENT_ORDER_KEY})) AS pages`,
        'FROM events',
        "WHERE site_id = {site:UInt32} AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')} AND type = 'pageview'",
        'GROUP BY session_key',
        '    )',
        '    WHERE length(pages) >= 2',
        '  )',
        '  WHERE 1',
        ')',
        'WHERE length(path) >= 2',
        'GROUP BY path',
        'ORDER BY sessions DESC, path ASC',
        'LIMIT {limit:UInt32}',
        'SETTINGS max_bytes_before_external_group_by = 268435456',
      ].join('\n'),
    )
    expect(compiled.params).toEqual({
      site: 7,
      from: '2026-03-01 00:00:00.000',
      to: '2026-04-01 00:00:00.000',
      steps: 4,
      limit: 20,
    })
  })

  it('cuts from start_path to the next end_path within steps', () => {
    const compiled = compileJourneys(scope, { steps: 3, limit: 5, startPath: '/a', endPath: '/b' })
    expect(compiled.sql).toContain(
      'SELECT indexOf(seq, {start_path:String}) AS start_at, ' +
        'indexOf(arraySlice(seq, start_at + 1), {end_path:String}) AS end_after, ' +
        'arraySlice(seq, start_at, end_after + 1) AS path',
    )
    expect(compiled.sql).toContain('WHERE start_at > 0 AND end_after > 0 AND end_after + 1 <= {steps:UInt8}')
    expect(compiled.params).toMatchObject({ start_path: '/a', end_path: '/b', steps: 3 })
    expect(compiled.sql).not.toContain('/a')
  })

  it('cuts the pages ending at end_path', () => {
    const compiled = compileJourneys(scope, { steps: 3, limit: 5, endPath: '/b' })
    expect(compiled.sql).toContain(
      'arraySlice(seq, greatest(1, toInt64(end_at) - {steps:UInt8} + 1), least(end_at, {steps:UInt8})) AS path',
    )
    expect(compiled.params).not.toHaveProperty('start_path')
  })
})

describe('journeyLinks', () => {
  it('sums the transitions of the journeys per step, most first', () => {
    expect(
      journeyLinks([
        { path: ['/', '/a', '/b'], sessions: 5 },
        { path: ['/', '/a'], sessions: 2 },
        { path: ['/x', '/b', '/a'], sessions: 1 },
      ]),
    ).toEqual([
      { from: { step: 1, pathname: '/' }, to: { step: 2, pathname: '/a' }, sessions: 7 },
      { from: { step: 1, pathname: '/x' }, to: { step: 2, pathname: '/b' }, sessions: 1 },
      { from: { step: 2, pathname: '/a' }, to: { step: 3, pathname: '/b' }, sessions: 5 },
      { from: { step: 2, pathname: '/b' }, to: { step: 3, pathname: '/a' }, sessions: 1 },
    ])
  })

  it('has none for no journeys', () => {
    expect(journeyLinks([])).toEqual([])
  })
})
