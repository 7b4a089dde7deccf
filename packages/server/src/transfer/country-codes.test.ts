import { describe, expect, it } from 'vitest'
import { countryCodeOf } from './country-codes.js'

describe('countryCodeOf', () => {
  it('maps the English names Google Analytics writes to current ISO 3166-1 codes', () => {
    expect(
      [
        'United States',
        'United Kingdom',
        'Germany',
        'Türkiye',
        'Turkey',
        'Hong Kong',
        'Czechia',
        'Russia',
        'france',
      ].map(countryCodeOf),
    ).toEqual(['US', 'GB', 'DE', 'TR', 'TR', 'HK', 'CZ', 'RU', 'FR'])
  })

  it("answers '' for unknown names and (not set)", () => {
    expect(['(not set)', '', 'Atlantis', 'European Union'].map(countryCodeOf)).toEqual(['', '', '', ''])
  })
})
