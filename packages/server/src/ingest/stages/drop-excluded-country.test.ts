import { describe, expect, it } from 'vitest'
import { stageDraft } from '../draft.fixture.js'
import { dropExcludedCountry } from './drop-excluded-country.js'

/** A draft whose geolocation (put before this stage) found `country`, on a site excluding `excluded`. */
const locatedIn = (country: string, excluded: string[]) => {
  const draft = stageDraft({ site: { excludedCountries: excluded } })
  draft.row.country = country
  return draft
}

describe('dropExcludedCountry', () => {
  it('does not record an event from an excluded country, naming it', () => {
    expect(dropExcludedCountry(locatedIn('GB', ['DE', 'GB']))).toEqual({
      ok: false,
      reason: { kind: 'excluded_country', country: 'GB' },
    })
  })

  it('matches codes entered in lower case', () => {
    expect(dropExcludedCountry(locatedIn('GB', ['gb']))).toMatchObject({ ok: false })
  })

  it('records events from other countries, of unknown location, or on a site excluding none', () => {
    expect(dropExcludedCountry(locatedIn('US', ['GB']))).toEqual({ ok: true })
    expect(dropExcludedCountry(locatedIn('', ['GB']))).toEqual({ ok: true })
    expect(dropExcludedCountry(locatedIn('GB', []))).toEqual({ ok: true })
  })
})
