import { describe, expect, it } from 'vitest'
import { describeCondition } from './alert-text'

describe('describeCondition', () => {
  const rule = {
    name: 'x',
    metric: 'pageviews' as const,
    eventName: null,
    windowMinutes: 60,
    comparison: 'above' as const,
    threshold: 100,
    relative: false,
    enabled: true,
  }
  it('puts a rule into words', () => {
    expect(describeCondition(rule)).toBe('Pageviews above 100 in 1 hour')
    expect(
      describeCondition({ ...rule, metric: 'custom_events', eventName: 'signup', windowMinutes: 15 }),
    ).toBe('Custom events “signup” above 100 in 15 minutes')
    expect(
      describeCondition({
        ...rule,
        relative: true,
        comparison: 'below',
        threshold: -20,
        windowMinutes: 2880,
      }),
    ).toBe('Pageviews change below -20% vs. the previous 2 days')
  })
})
