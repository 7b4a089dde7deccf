import { describe, expect, it } from 'vitest'
import { explainDrops } from './drop-reasons'

describe('explainDrops', () => {
  it('lists the reasons most frequent first, with what to change', () => {
    const explained = explainDrops({ domain_mismatch: 2, 'bot:headless_browser': 12, 'made-up': 1 })
    expect(explained.map((entry) => [entry.reason, entry.count])).toEqual([
      ['bot:headless_browser', 12],
      ['domain_mismatch', 2],
      ['made-up', 1],
    ])
    expect(explained[0]?.what).toContain('headless')
    expect(explained[0]?.fix).toContain('Block bots')
    expect(explained[2]?.what).toBe('refused (made-up)')
  })
})
