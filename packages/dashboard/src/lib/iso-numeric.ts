/**
 * ISO 3166-1 numeric to alpha-2 codes, for the countries the world map's shapes (Natural Earth
 * 1:110m via world-atlas) identify by numeric id, from i18n-iso-countries' code table (its data only:
 * its module adds name lookups and a diacritics table the map does not need). Kosovo has no numeric
 * code (the shapes give none); the geolocation data calls it XK.
 */
import codes from 'i18n-iso-countries/codes.json'

const alpha2 = new Map(codes.map(([code, , numeric]) => [numeric, code]))

/** @returns the alpha-2 code of a numeric id ('840' -> 'US'), or null for an unknown id */
export function alpha2OfNumeric(numeric: string): string | null {
  return alpha2.get(numeric) ?? null
}
