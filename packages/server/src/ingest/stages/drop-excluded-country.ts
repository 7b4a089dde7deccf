import type { Draft } from '../draft.js'
import { ok, reject, type StageResult } from '../outcome.js'

/** The site's `excludedCountries` (ISO 3166-1 alpha-2): events from them are not recorded. */
export function dropExcludedCountry(draft: Draft): StageResult {
  const country = draft.row.country
  return country !== '' && draft.site.excludedCountries.has(country)
    ? reject({ kind: 'excluded_country', country })
    : ok
}
