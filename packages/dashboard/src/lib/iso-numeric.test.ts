import { describe, expect, it } from 'vitest'
import worldAtlas from 'world-atlas/countries-110m.json'
import { alpha2OfNumeric } from './iso-numeric'

describe('alpha2OfNumeric', () => {
  it('maps every numeric id of the map shapes to a distinct code Intl can name', () => {
    const ids = (
      worldAtlas as { objects: { countries: { geometries: { id?: string }[] } } }
    ).objects.countries.geometries
      .map((g) => g.id)
      .filter((id): id is string => id !== undefined)
    const codes = ids.map(alpha2OfNumeric)
    expect(codes.every((c) => c !== null)).toBe(true)
    expect(new Set(codes).size).toBe(ids.length)
    const names = new Intl.DisplayNames(['en'], { type: 'region' })
    for (const code of codes) expect(names.of(code ?? '')).not.toBe(code)
    expect(alpha2OfNumeric('840')).toBe('US')
    expect(alpha2OfNumeric('826')).toBe('GB')
    expect(alpha2OfNumeric('999')).toBeNull()
  })
})
