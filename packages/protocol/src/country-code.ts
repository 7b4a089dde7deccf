/** ISO 3166-1 alpha-2 country codes, as Node's and browsers' Intl data name them. */

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' })
/** Two-letter region codes ICU names that are not countries (or not ISO 3166-1: UK is GB). */
const notCountries = new Set(['EU', 'EZ', 'UN', 'ZZ', 'QO', 'UK', 'XA', 'XB'])

/**
 * True for an ISO 3166-1 alpha-2 code that ICU (Intl data) names, e.g. 'DE', plus 'XK' (Kosovo,
 * which geolocation databases use); false for unknown or non-country codes such as 'XX', 'EU', 'UK'.
 */
export function isCountryCode(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code) || notCountries.has(code)) return false
  try {
    const name = regionNames.of(code)
    return name !== undefined && name !== code
  } catch {
    return false
  }
}
