import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { reportQueryOf } from './report-query'
import {
  bucketOf,
  parseReportView,
  type ReportView,
  rangeOf,
  replaceView,
  reportViewParameters,
  reportViewSearch,
  withFilter,
  withoutFilter,
  withView,
} from './report-view'

const NOW = Date.parse('2026-03-10T23:30:00.000Z')
const isViewParameter = (name: string) => (reportViewParameters as readonly string[]).includes(name)
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

  it("keeps only days, ranges and filters the API takes, by the protocol's rules", () => {
    // Calendar days from 1970 to 2100; a range of at most 3,660 days.
    expect(parseReportView('period=custom&from=1969-12-31&to=1970-01-05').period).toBe('30d')
    expect(parseReportView('period=custom&from=2016-01-01&to=2026-01-08').period).toBe('30d')
    expect(parseReportView('period=custom&from=2016-01-01&to=2026-01-07')).toMatchObject({
      period: 'custom',
      from: '2016-01-01',
      to: '2026-01-07',
    })
    expect(
      parseReportView('compare=custom&compare_from=2016-01-01&compare_to=2026-01-08').compare,
    ).toBeUndefined()
    // A filter with more than 100 values, or a value over 2,048 characters, is left out.
    const many = Array.from({ length: 101 }, (_, i) => `/p${i}`)
    const filters = [
      { parameter: 'pathname', type: 'equals', value: many },
      { parameter: 'pathname', type: 'contains', value: ['x'.repeat(2049)] },
      { parameter: 'properties.plan', type: 'equals', value: ['pro'], extra: true },
      { parameter: 'country', type: 'is_set', value: [] },
    ]
    expect(parseReportView(`filters=${encodeURIComponent(JSON.stringify(filters))}`).filters).toEqual([
      { parameter: 'properties.plan', type: 'equals', value: ['pro'] },
    ])
  })
})

describe('segment', () => {
  it('keeps a saved segment in the URL and passes it to the API beside the filters', () => {
    const view = parseReportView(`segment=12&filters=${encodeURIComponent(JSON.stringify([country]))}`)
    expect(view).toEqual({ period: '30d', filters: [country], segment: 12 })
    expect(reportViewSearch(view)).toBe(
      'filters=%5B%7B%22parameter%22%3A%22country%22%2C%22type%22%3A%22equals%22%2C%22value%22%3A%5B%22DE%22%5D%7D%5D&segment=12',
    )
    expect(reportQueryOf(3, view, NOW)).toMatchObject({ filters: [country], segment: 12 })
    expect(reportQueryOf(3, { period: '30d', filters: [] }, NOW)).not.toHaveProperty('segment')
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
      reportQueryOf(
        3,
        { period: 'custom', from: '2026-01-01', to: '2026-01-31', tz: 'UTC', filters: [] },
        NOW,
      ),
    ).toEqual({ siteId: 3, startDate: '2026-01-01', endDate: '2026-01-31', timeZone: 'UTC', filters: [] })
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
    expect(reportQueryOf(3, view, NOW).compare).toEqual({
      mode: 'custom',
      custom: { startDate: '2025-02-27', endDate: '2025-03-02' },
      matchDayOfWeek: true,
    })
    expect(reportQueryOf(3, { period: '7d', filters: [] }, NOW).compare).toBeUndefined()
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

describe('replaceView', () => {
  const day = fc
    .integer({ min: Date.parse('2024-01-01'), max: Date.parse('2026-12-31') })
    .map((ms) => new Date(ms).toISOString().slice(0, 10))
  const filter = fc.record({
    parameter: fc.constantFrom('country' as const, 'pathname' as const, 'browser' as const),
    type: fc.constantFrom('equals' as const, 'contains' as const),
    value: fc.array(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 2 }),
  })
  /** Any view a control can set, invalid combinations (custom days without days) included. */
  const view: fc.Arbitrary<ReportView> = fc.record(
    {
      period: fc.constantFrom('today', '7d', '30d', '90d', 'month', 'custom'),
      from: day,
      to: day,
      tz: fc.constantFrom('UTC', 'Europe/Berlin'),
      filters: fc.array(filter, { maxLength: 2 }),
      segment: fc.integer({ min: 1, max: 50 }),
      bucket: fc.constantFrom('hour', 'day', 'week', 'month'),
      metric: fc.constantFrom('visitors', 'sessions', 'pageviews'),
      compare: fc.constantFrom('previous_period', 'previous_year', 'custom', 'none'),
      compareFrom: day,
      compareTo: day,
      matchDayOfWeek: fc.constant(true as const),
      event: fc.constantFrom('purchase', 'sign up', 'a&b=c'),
      property: fc.constantFrom('plan', 'price'),
      page: fc.integer({ min: 1, max: 9 }),
      replay: fc.constant(true as const),
      key: fc.constantFrom('k1', 'k2'),
    },
    { requiredKeys: ['period', 'filters'] },
  )
  /** A change as the controls make it: some fields of the current view set or cleared. */
  const change = fc.record(
    {
      compare: fc.constantFrom('previous_period', 'previous_year', 'custom', 'none', undefined),
      compareFrom: fc.option(day, { nil: undefined }),
      compareTo: fc.option(day, { nil: undefined }),
      matchDayOfWeek: fc.constantFrom(true as const, undefined),
      period: fc.constantFrom('today', '7d', '30d', '90d', 'month'),
      metric: fc.constantFrom('visitors', 'sessions', 'pageviews', undefined),
      event: fc.constantFrom('purchase', undefined),
      property: fc.constantFrom('plan', undefined),
      page: fc.constantFrom(2, undefined),
    },
    { requiredKeys: [] },
  )
  /** A route's own parameters (an error's message, a funnel's steps), and stray view parameters. */
  const routeParams = fc.array(
    fc.tuple(fc.constantFrom('message', 'steps', 'show'), fc.string({ maxLength: 5 })),
    { maxLength: 3 },
  )
  const stray = fc.array(fc.tuple(fc.constantFrom(...reportViewParameters), fc.string({ maxLength: 8 })), {
    maxLength: 6,
  })

  it('leaves each view parameter at most once and the route parameters as they were, after any changes', () => {
    fc.assert(
      fc.property(
        routeParams,
        stray,
        view,
        fc.array(change, { maxLength: 8 }),
        (own, junk, first, changes) => {
          let search = new URLSearchParams([...own, ...junk]).toString()
          const apply = (next: ReportView) => {
            search = replaceView(search, next)
            const query = new URLSearchParams(search)
            for (const name of reportViewParameters) expect(query.getAll(name).length).toBeLessThanOrEqual(1)
            // The route's own parameters come first, unchanged and in their order.
            expect([...query].filter(([name]) => !isViewParameter(name))).toEqual(own)
            // The URL holds exactly the view that was set, as its parser reads it.
            expect(parseReportView(search)).toEqual(parseReportView(reportViewSearch(next)))
          }
          apply(first)
          for (const step of changes) apply({ ...parseReportView(search), ...step })
        },
      ),
    )
  })

  it('writes only parameters of its list, and a compare choice replaces the last one', () => {
    fc.assert(
      fc.property(view, (v) => {
        for (const [name] of new URLSearchParams(reportViewSearch(v)))
          expect(isViewParameter(name)).toBe(true)
      }),
    )
    let search = 'message=boom'
    for (const compare of ['previous_year', 'previous_period', 'custom', 'none', undefined] as const) {
      const next: ReportView = {
        ...parseReportView(search),
        compare,
        ...(compare === 'custom' ? { compareFrom: '2025-01-01', compareTo: '2025-01-07' } : {}),
      }
      search = replaceView(search, next)
      expect(parseReportView(search).compare).toBe(compare)
    }
    expect(search).toBe('message=boom')
  })

  it('reads a parameter given twice with its last value', () => {
    expect(parseReportView('compare=previous_year&compare=previous_period&period=7d&period=today')).toEqual({
      period: 'today',
      filters: [],
      compare: 'previous_period',
    })
  })
})

describe('the open event properties', () => {
  it('round-trips the event and its key, and drops a key without an event', () => {
    const view: ReportView = { period: '30d', filters: [], event: 'sign up', property: 'plan' }
    expect(reportViewSearch(view)).toBe('event=sign+up&property=plan')
    expect(parseReportView('event=sign+up&property=plan')).toEqual(view)
    expect(parseReportView('property=plan')).toEqual({ period: '30d', filters: [] })
  })
})
