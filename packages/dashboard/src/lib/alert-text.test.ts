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
  it('puts a crawler rule into words, at least or at most', () => {
    const crawler = { ...rule, threshold: 1 }
    expect(describeCondition({ ...crawler, metric: 'crawler_new_agents' })).toBe('At least 1 new crawler')
    expect(
      describeCondition({ ...crawler, metric: 'crawler_new_agents', crawlerCategory: 'ai', threshold: 2 }),
    ).toBe('At least 2 new crawlers (AI crawlers and agents)')
    expect(
      describeCondition({ ...rule, metric: 'crawler_requests', crawlerAgent: 'GPTBot', relative: true }),
    ).toBe('Crawler requests of GPTBot change at least 100% vs. the previous 1 hour')
    expect(
      describeCondition({ ...rule, metric: 'crawler_requests', crawlerCategory: 'seo', comparison: 'below' }),
    ).toBe('Crawler requests of SEO tools at most 100 in 1 hour')
  })
})
