import type { IngestDeps } from '../deps.js'
import type { Draft } from '../draft.js'
import { ok, type StageResult } from '../outcome.js'

/**
 * Client IP to country, region, city and coordinates (IP Geolocation by DB-IP, db-ip.com, CC BY 4.0).
 * Unknown or private addresses leave the fields empty. The IP itself is never stored.
 */
export function putGeolocation(draft: Draft, deps: IngestDeps): StageResult {
  const location = deps.geolocator?.lookup(draft.ip)
  if (location) {
    draft.row.country = location.country
    draft.row.region = location.region
    draft.row.city = location.city
    draft.row.lat = location.lat
    draft.row.lon = location.lon
  }
  return ok
}
