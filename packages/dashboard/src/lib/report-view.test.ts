import { describe, expect, it } from 'vitest'
import {
  bucketOf,
  parseReportView,
  type ReportView,
  rangeOf,
  reportQuery,
  reportViewSearch,
  withFilter,
  withoutFilter,
  withView,
} from './report-view'

const NOW = Date.parse('2026-03-10T23:30:00.000Z')
const country = { parameter: 'country', type: 'equals', value: ['DE'] } as const

describe('parseReportView', () => {
  it('reads every parameter and round-trips', () => {
    const view: ReportView = {
      period: 'custom',
      from: '2026-03-01',
      to: '2026-03-31',
      tz: 'Europe/Berlin',
      filters: [{ ...country, value: ['DE'] }],
      bucket: 'week',
      metric: 'pageviews',
      page: 3,
      replay: true,
      key: 'abc',
    }
    const search = reportViewSearch(view)
    expect(search).toBe(
      'key=abc&period=custom&from=2026-03-01&to=2026-03-31&tz=Europe%2FBerlin&filters=%5B%7B%22parameter%22%3A%22country%22%2C%22type%22%3A%22equals%22%2C%22value%22%3A%5B%22DE%22%5D%7D%5D&bucket=week&metric=pageviews&page=3&replay=1',
    )
    expect(parseReportView(`?${search}`)).toEqual(view)
    expect(reportViewSearch(parseReportView(''))).toBe('')
  })

  it('falls back to defaults for invalid values', () => {
    expect(
      parseReportView(
        'period=custom&from=2026-02-30&to=2026-03-01&tz=Mars/Olympus&bucket=year&metric=x&page=0&replay=yes&filters=[{"parameter":"nope","type":"equals","value":["x"]},{"parameter":"city","type":"equals","value":[1]},{"parameter":"city","type":"contains","value":["ber"]}]',
      ),
    ).toEqual({ period: '30d', filters: [{ parameter: 'city', type: 'contains', value: ['ber'] }] })
    expect(parseReportView('filters=not-json')).toEqual({ period: '30d', filters: [] })
    expect(parseReportView('period=custom&from=2026-03-02&to=2026-03-01').period).toBe('30d')
  })
})

describe('segment', () => {
  it('keeps a saved segment in the URL and passes it to the API beside the filters', () => {
    const view = parseReportView(`segment=12&filters=${encodeURIComponent(JSON.stringify([country]))}`)
    expect(view).toEqual({ period: '30d', filters: [country], segment: 12 })
    expect(reportViewSearch(view)).toBe(
      'filters=%5B%7B%22parameter%22%3A%22country%22%2C%22type%22%3A%22equals%22%2C%22value%22%3A%5B%22DE%22%5D%7D%5D&segment=12',
    )
    expect(reportQuery(view, NOW)).toMatchObject({ filters: [country], segment: 12 })
    expect(reportQuery({ period: '30d', filters: [] }, NOW)).not.toHaveProperty('segment')
    for (const invalid of ['0', '-3', '1.5', 'abc', '99999999999']) {
      expect(parseReportView(`segment=${invalid}`)).toEqual({ period: '30d', filters: [] })
    }
  })
})

describe('rangeOf', () => {
  it('resolves presets to calendar days in the zone', () => {
    const utc = (period: ReportView['period']) => rangeOf({ period, filters: [], tz: 'UTC' }, NOW)
    expect(utc('today')).toEqual({ startDate: '2026-03-10', endDate: '2026-03-10' })
    expect(utc('7d')).toEqual({ startDate: '2026-03-04', endDate: '2026-03-10' })
    expect(utc('30d')).toEqual({ startDate: '2026-02-09', endDate: '2026-03-10' })
    expect(utc('90d')).toEqual({ startDate: '2025-12-11', endDate: '2026-03-10' })
    expect(utc('month')).toEqual({ startDate: '2026-03-01', endDate: '2026-03-10' })
    // 23:30 UTC is already the 11th in Berlin.
    expect(rangeOf({ period: 'today', filters: [], tz: 'Europe/Berlin' }, NOW).startDate).toBe('2026-03-11')
    expect(
      reportQuery({ period: 'custom', from: '2026-01-01', to: '2026-01-31', tz: 'UTC', filters: [] }, NOW),
    ).toEqual({ start_date: '2026-01-01', end_date: '2026-01-31', time_zone: 'UTC', filters: [] })
  })

  it('picks a bucket that fits the range', () => {
    const view: ReportView = { period: '30d', filters: [] }
    expect(bucketOf(view, 1)).toBe('hour')
    expect(bucketOf(view, 30)).toBe('day')
    expect(bucketOf(view, 365)).toBe('week')
    expect(bucketOf({ ...view, bucket: 'hour' }, 7)).toBe('hour')
    expect(bucketOf({ ...view, bucket: 'hour' }, 90)).toBe('day')
    expect(bucketOf({ ...view, bucket: 'month' }, 90)).toBe('month')
  })
})

describe('filters', () => {
  it('adds a filter, replacing one of the same parameter and type, and removes one', () => {
    const base: ReportView = { period: '7d', filters: [], page: 4 }
    const germany = withFilter(base, { ...country, value: ['DE'] })
    expect(germany).toEqual({ period: '7d', filters: [{ ...country, value: ['DE'] }], page: undefined })
    const france = withFilter(withFilter(germany, { parameter: 'pathname', type: 'equals', value: ['/'] }), {
      ...country,
      value: ['FR'],
    })
    expect(france.filters.map((f) => f.value[0])).toEqual(['/', 'FR'])
    expect(withoutFilter(france, 0).filters.map((f) => f.value[0])).toEqual(['FR'])
  })

  it('appends the view to paths', () => {
    expect(withView('/sites/1/goals', { period: '7d', filters: [] })).toBe('/sites/1/goals?period=7d')
    expect(withView('/sites/1/errors/detail?message=x', { period: '30d', filters: [], key: 'k' })).toBe(
      '/sites/1/errors/detail?message=x&key=k',
    )
    expect(withView('/sites/1', { period: '30d', filters: [] })).toBe('/sites/1')
  })
})

describe('the comparison of a view', () => {
  it('round-trips through the URL and reaches the API query', () => {
    const view: ReportView = {
      period: '7d',
      tz: 'UTC',
      filters: [],
      compare: 'custom',
      compareFrom: '2025-02-27',
      compareTo: '2025-03-02',
      matchDayOfWeek: true,
    }
    const search = reportViewSearch(view)
    expect(search).toBe('period=7d&tz=UTC&compare=custom&compare_from=2025-02-27&compare_to=2025-03-02&dow=1')
    expect(parseReportView(search)).toEqual(view)
    expect(reportQuery(view, NOW).compare).toEqual({
      mode: 'custom',
      startDate: '2025-02-27',
      endDate: '2025-03-02',
      matchDayOfWeek: true,
    })
    expect(reportQuery({ period: '7d', filters: [] }, NOW).compare).toBeUndefined()
  })

  it('drops an unknown mode, a custom one without valid days, and weekday matching with none', () => {
    expect(parseReportView('compare=last_month').compare).toBeUndefined()
    expect(
      parseReportView('compare=custom&compare_from=2025-03-02&compare_to=2025-02-27').compare,
    ).toBeUndefined()
    expect(parseReportView('compare=none&dow=1')).toEqual({ period: '30d', filters: [], compare: 'none' })
    expect(parseReportView('compare=previous_year&dow=1')).toMatchObject({
      compare: 'previous_year',
      matchDayOfWeek: true,
    })
  })
})
