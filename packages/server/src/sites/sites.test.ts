import { describe, expect, it } from 'vitest'
import { parseSiteId } from './sites.js'

describe('parseSiteId', () => {
  it('takes positive 32-bit integers, as numbers or decimal strings', () => {
    expect(parseSiteId('1')).toBe(1)
    expect(parseSiteId(42)).toBe(42)
    expect(parseSiteId('2147483647')).toBe(2147483647)
  })

  it.each([
    '0',
    '-1',
    '1.5',
    '1e3',
    ' 1',
    '',
    '2147483648', // beyond PostgreSQL's serial: the lookup itself would fail (a 500)
    '4294967295',
    '99999999999',
    2 ** 31,
    Number.NaN,
    null,
  ])('refuses %j', (value) => {
    expect(parseSiteId(value)).toBeNull()
  })
})
