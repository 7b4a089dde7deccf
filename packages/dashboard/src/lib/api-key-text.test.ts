import { describe, expect, it } from 'vitest'
import { expiresAtFor, isExpired, scopeLabel } from './api-key-text'

describe('api key text', () => {
  const now = Date.parse('2026-11-22T12:00:00.000Z')

  it('computes the expiry of each choice from now', () => {
    expect(expiresAtFor('never', now)).toBeNull()
    expect(expiresAtFor('30d', now)).toBe('2026-12-22T12:00:00.000Z')
    expect(expiresAtFor('90d', now)).toBe('2027-02-20T12:00:00.000Z')
    expect(expiresAtFor('1y', now)).toBe('2027-11-22T12:00:00.000Z')
  })

  it('says whether a key has expired', () => {
    expect(isExpired({ expiresAt: null }, now)).toBe(false)
    expect(isExpired({ expiresAt: '2026-11-22T12:00:01.000Z' }, now)).toBe(false)
    expect(isExpired({ expiresAt: '2026-11-22T12:00:00.000Z' }, now)).toBe(true)
    expect(isExpired({ expiresAt: '2026-01-01T00:00:00.000Z' }, now)).toBe(true)
  })

  it('names the scopes', () => {
    expect((['track', 'read', 'logs', 'full'] as const).map(scopeLabel)).toEqual([
      'Track only',
      'Read',
      'Server logs',
      'Full access',
    ])
  })
})
