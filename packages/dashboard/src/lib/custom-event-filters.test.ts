import type { ReportFilter } from '@pathlight/protocol'
import { describe, expect, it } from 'vitest'
import { selectsCustomEventsOnly } from './custom-event-filters'

const f = (parameter: string, type: string, value: string[] = []) =>
  ({ parameter, type, value }) as ReportFilter

describe('selectsCustomEventsOnly', () => {
  it('is true for a filter on a custom event name or property that needs the value', () => {
    expect(selectsCustomEventsOnly([f('event_name', 'equals', ['purchase'])])).toBe(true)
    expect(
      selectsCustomEventsOnly([f('country', 'equals', ['DE']), f('properties.plan', 'equals', ['pro'])]),
    ).toBe(true)
    expect(selectsCustomEventsOnly([f('properties.plan', 'is_set')])).toBe(true)
    expect(selectsCustomEventsOnly([f('event_name', 'contains', ['sign'])])).toBe(true)
  })

  it('is false for page filters and for filters a pageview passes', () => {
    expect(selectsCustomEventsOnly([])).toBe(false)
    expect(selectsCustomEventsOnly([f('pathname', 'equals', ['/'])])).toBe(false)
    expect(selectsCustomEventsOnly([f('event_name', 'not_equals', ['purchase'])])).toBe(false)
    expect(selectsCustomEventsOnly([f('properties.plan', 'is_not_set')])).toBe(false)
    expect(selectsCustomEventsOnly([f('properties.plan', 'not_contains', ['pro'])])).toBe(false)
    expect(selectsCustomEventsOnly([f('event_name', 'equals', ['purchase', ''])])).toBe(false)
  })
})
