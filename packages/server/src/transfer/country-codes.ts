/**
 * Country names (English, as Google Analytics writes `geo.country`) to ISO 3166-1 alpha-2 codes, from
 * the runtime's own region names (`Intl.DisplayNames`, full ICU in Node) plus the short names that
 * Google writes where ICU's differ ("Hong Kong" for "Hong Kong SAR China", ...).
 */

/** Names Google Analytics uses that ICU's English names spell differently. */
const ALIASES: Readonly<Record<string, string>> = {
  'hong kong': 'HK',
  macao: 'MO',
  macau: 'MO',
  myanmar: 'MM',
  turkey: 'TR',
  'czech republic': 'CZ',
  palestine: 'PS',
  "côte d'ivoire": 'CI',
  "cote d'ivoire": 'CI',
  'congo - kinshasa': 'CD',
  'democratic republic of the congo': 'CD',
  'congo - brazzaville': 'CG',
  'republic of the congo': 'CG',
  'united states of america': 'US',
  'the netherlands': 'NL',
  'north macedonia': 'MK',
  eswatini: 'SZ',
  'cape verde': 'CV',
  'bosnia & herzegovina': 'BA',
  'trinidad & tobago': 'TT',
  'antigua & barbuda': 'AG',
  'st. kitts & nevis': 'KN',
  'st. lucia': 'LC',
  'st. vincent & grenadines': 'VC',
}

/** Codes ICU still names that are not current ISO 3166-1 countries (withdrawn, reserved or groups). */
const NOT_CURRENT = new Set(
  'AN BU CS DD DY FX HV NH RH SU TP UK VD YD YU ZR EU EZ UN QO XA XB XK ZZ'.split(' '),
)

let byName: Map<string, string> | undefined

function names(): Map<string, string> {
  if (byName) return byName
  const display = new Intl.DisplayNames(['en'], { type: 'region' })
  const map = new Map<string, string>()
  for (let first = 65; first <= 90; first++) {
    for (let second = 65; second <= 90; second++) {
      const code = String.fromCharCode(first, second)
      const name = display.of(code)
      // Unassigned codes come back as themselves; 'Unknown Region' and the like match no country.
      if (name && name !== code && !NOT_CURRENT.has(code))
        map.set(name.toLowerCase().replace(/’/g, "'"), code)
    }
  }
  for (const [name, code] of Object.entries(ALIASES)) map.set(name, code)
  byName = map
  return map
}

/**
 * @param name a country's English name ("United States", "Germany", "Türkiye"); any case
 * @returns its ISO 3166-1 alpha-2 code in upper case, or '' when the name is unknown or "(not set)"
 */
export function countryCodeOf(name: string): string {
  const key = name.trim().toLowerCase().replace(/’/g, "'")
  if (key === '') return ''
  return names().get(key) ?? ''
}
