import { describe, expect, it } from 'vitest'
import {
  isCalendarDay,
  MAX_FILTER_VALUES,
  MAX_VALUE_LENGTH,
  propertyKeyOf,
  propertyKeyProblem,
  reportFilterProblem,
  toReportFilter,
} from './query-rules.js'

describe('calendar days', () => {
  it('takes real days from 1970 to 2100 only', () => {
    expect(isCalendarDay('2026-02-28')).toBe(true)
    expect(isCalendarDay('2024-02-29')).toBe(true)
    expect(isCalendarDay('2026-02-29')).toBe(false)
    expect(isCalendarDay('2026-13-01')).toBe(false)
    expect(isCalendarDay('1969-12-31')).toBe(false)
    expect(isCalendarDay('2101-01-01')).toBe(false)
    expect(isCalendarDay('2026-3-1')).toBe(false)
  })
})

describe('property keys', () => {
  it('reads the key of a parameter, and none of a column', () => {
    expect(propertyKeyOf('properties.plan.tier')).toBe('plan.tier')
    expect(propertyKeyOf('properties.')).toBe('')
    expect(propertyKeyOf('country')).toBeUndefined()
  })

  it('takes 1 to 100 printable UTF-16 code units', () => {
    expect(propertyKeyProblem('Größe 🎉')).toBeNull()
    expect(propertyKeyProblem('x'.repeat(100))).toBeNull()
    expect(propertyKeyProblem('')).toBe('property key must not be empty')
    expect(propertyKeyProblem('x'.repeat(101))).toBe('property key must be at most 100 characters')
    // 51 emoji are 51 code points but 102 code units.
    expect(propertyKeyProblem('🎉'.repeat(51))).toBe('property key must be at most 100 characters')
    expect(propertyKeyProblem('a\nb')).toBe('property key must hold printable characters only')
    expect(propertyKeyProblem('a\u200bb')).toBe('property key must hold printable characters only')
  })
})

describe('reportFilterProblem', () => {
  it('takes a column filter, a property filter of every type and the presence types without values', () => {
    expect(reportFilterProblem({ parameter: 'country', type: 'equals', value: ['DE', 'FR'] })).toBeNull()
    expect(reportFilterProblem({ parameter: 'pathname', type: 'regex', value: ['^/blog'] })).toBeNull()
    expect(
      reportFilterProblem({ parameter: 'properties.plan', type: 'not_contains', value: ['x'] }),
    ).toBeNull()
    expect(reportFilterProblem({ parameter: 'properties.plan', type: 'is_set', value: [] })).toBeNull()
    expect(reportFilterProblem({ parameter: 'properties.plan', type: 'is_not_set', value: [] })).toBeNull()
    expect(reportFilterProblem({ parameter: 'country', type: 'equals', value: [''] })).toBeNull()
  })

  it('names the field of the first problem', () => {
    const problem = (filter: unknown) => reportFilterProblem(filter)
    expect(problem(null)?.message).toBe('each filter must be an object {parameter, type, value}')
    expect(problem([])?.field).toBe('parameter')
    expect(problem({ type: 'equals', value: ['x'] })).toEqual({
      field: 'parameter',
      message: 'parameter is required',
    })
    expect(problem({ parameter: 'planet', type: 'equals', value: ['x'] })?.message).toMatch(
      /^unknown parameter "planet"; one of pathname, .*, or properties\.<key>$/,
    )
    expect(problem({ parameter: 'properties.', type: 'equals', value: ['x'] })).toEqual({
      field: 'parameter',
      message: 'property key must not be empty',
    })
    expect(problem({ parameter: 'properties.a\u0000b', type: 'equals', value: ['x'] })?.field).toBe(
      'parameter',
    )
    expect(problem({ parameter: 'country', value: ['x'] })).toEqual({
      field: 'type',
      message: 'type is required',
    })
    expect(problem({ parameter: 'country', type: 'between', value: ['x'] })?.message).toMatch(
      /^unknown type "between"; one of equals, .*, is_not_set$/,
    )
    expect(problem({ parameter: 'country', type: 'is_set', value: [] })).toEqual({
      field: 'type',
      message: 'type is_set applies to properties.<key> only',
    })
    expect(problem({ parameter: 'country', type: 'equals', value: 'DE' })?.field).toBe('value')
    expect(problem({ parameter: 'country', type: 'equals', value: [3] })).toEqual({
      field: 'value',
      message: 'values must be strings',
    })
    expect(problem({ parameter: 'country', type: 'equals', value: [] })).toEqual({
      field: 'value',
      message: 'value must hold at least one value',
    })
    expect(problem({ parameter: 'properties.plan', type: 'is_set', value: ['pro'] })).toEqual({
      field: 'value',
      message: 'value must be [] for is_set',
    })
  })

  it('bounds the values: how many, and how long each is', () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => String(i))
    const filter = (value: string[]) => ({ parameter: 'pathname', type: 'equals', value })
    expect(reportFilterProblem(filter(values(MAX_FILTER_VALUES)))).toBeNull()
    expect(reportFilterProblem(filter(values(MAX_FILTER_VALUES + 1)))?.message).toBe(
      'value holds at most 100 values',
    )
    expect(reportFilterProblem(filter(['x'.repeat(MAX_VALUE_LENGTH)]))).toBeNull()
    expect(reportFilterProblem(filter(['x'.repeat(MAX_VALUE_LENGTH + 1)]))?.message).toBe(
      'values must be at most 2048 characters',
    )
  })
})

describe('toReportFilter', () => {
  it('keeps the three fields of a filter, and nothing of one with a problem', () => {
    const value = ['pro']
    const filter = toReportFilter({ parameter: 'properties.plan', type: 'equals', value, note: 'x' })
    expect(filter).toEqual({ parameter: 'properties.plan', type: 'equals', value: ['pro'] })
    expect(filter?.value).not.toBe(value)
    expect(toReportFilter({ parameter: 'properties.plan', type: 'equals', value: [] })).toBeUndefined()
  })
})
