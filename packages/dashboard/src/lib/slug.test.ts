import { describe, expect, it } from 'vitest'
import { slugOf } from './slug'

describe('slugOf', () => {
  it('makes a key the server accepts from a name', () => {
    expect(slugOf('Pricing page')).toBe('pricing-page')
    expect(slugOf('  Café — Checkout v2!  ')).toBe('cafe-checkout-v2')
    expect(slugOf('__new_flow')).toBe('new_flow')
    expect(slugOf('x'.repeat(80))).toHaveLength(64)
    expect(slugOf('!!!')).toBe('')
  })
})
