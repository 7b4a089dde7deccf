import { describe, expect, it } from 'vitest'
import { isPropertyFilter, propertyParameter, withPropertyValue } from './property-filters'
import { filterText } from './report-labels'
import { reportQueryOf } from './report-query'
import { parseReportView, type ReportView, reportViewSearch } from './report-view'

describe('property parameters', () => {
  it('maps a key to its parameter, and tells a column from a property', () => {
    expect(propertyParameter('plan')).toBe('properties.plan')
    expect(isPropertyFilter({ parameter: 'properties.plan', type: 'is_set', value: [] })).toBe(true)
    expect(isPropertyFilter({ parameter: 'event_name', type: 'equals', value: ['signup'] })).toBe(false)
  })
})

describe('property filters in the view', () => {
  const base: ReportView = {
    period: '7d',
    filters: [{ parameter: 'country', type: 'equals', value: ['DE'] }],
  }

  it('adds the event and the value, replacing an earlier value and event, back on page 1', () => {
    const first = withPropertyValue({ ...base, page: 3 }, 'signup', 'plan', 'pro')
    expect(first.filters).toEqual([
      { parameter: 'country', type: 'equals', value: ['DE'] },
      { parameter: 'event_name', type: 'equals', value: ['signup'] },
      { parameter: 'properties.plan', type: 'equals', value: ['pro'] },
    ])
    expect(first.page).toBeUndefined()
    const second = withPropertyValue(first, 'purchase', 'plan', 'team')
    expect(second.filters.slice(1)).toEqual([
      { parameter: 'event_name', type: 'equals', value: ['purchase'] },
      { parameter: 'properties.plan', type: 'equals', value: ['team'] },
    ])
    const other = withPropertyValue(second, 'purchase', 'source', 'ad')
    expect(other.filters.map((f) => f.parameter)).toEqual([
      'country',
      'properties.plan',
      'event_name',
      'properties.source',
    ])
  })

  it('adds, for the empty value, that the event carries the key', () => {
    expect(withPropertyValue(base, 'signup', 'coupon', '').filters.slice(1)).toEqual([
      { parameter: 'event_name', type: 'equals', value: ['signup'] },
      { parameter: 'properties.coupon', type: 'equals', value: [''] },
      { parameter: 'properties.coupon', type: 'is_set', value: [] },
    ])
  })

  it('round-trips through the URL and reaches the API query as is', () => {
    const view: ReportView = {
      ...base,
      filters: [
        ...base.filters,
        { parameter: 'properties.plan', type: 'equals', value: ['pro'] },
        { parameter: 'properties.coupon', type: 'is_not_set', value: [] },
      ],
    }
    const parsed = parseReportView(reportViewSearch(view))
    expect(parsed).toEqual(view)
    expect(reportQueryOf(1, parsed, Date.parse('2026-03-10T12:00:00Z')).filters).toEqual(view.filters)
  })

  it('drops malformed property filters from the URL and keeps the rest', () => {
    const filters = JSON.stringify([
      { parameter: 'properties.plan', type: 'is_set', value: ['x'] },
      { parameter: 'properties.', type: 'equals', value: ['x'] },
      { parameter: 'country', type: 'is_set', value: [] },
      { parameter: 'properties.plan', type: 'equals', value: [3] },
      { parameter: 'properties.plan', type: 'contains', value: ['PR'] },
    ])
    expect(parseReportView(`filters=${encodeURIComponent(filters)}`).filters).toEqual([
      { parameter: 'properties.plan', type: 'contains', value: ['PR'] },
    ])
  })

  it('words a property filter for its chip', () => {
    expect(filterText({ parameter: 'properties.plan', type: 'equals', value: ['pro', 'team'] })).toBe(
      'Property plan is pro or team',
    )
    expect(filterText({ parameter: 'properties.plan', type: 'not_equals', value: [''] })).toBe(
      'Property plan is not (none)',
    )
    expect(filterText({ parameter: 'properties.coupon', type: 'is_set', value: [] })).toBe(
      'Property coupon is set',
    )
    expect(filterText({ parameter: 'country', type: 'equals', value: ['DE'] })).toBe('Country is Germany')
  })
})
