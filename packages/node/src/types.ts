/**
 * The public shapes of the client: its options, the page fields a tracking call carries, custom event
 * properties and the server's success answer. Times are in milliseconds throughout.
 */

/** Options of `new Pathlight(options)`. Only `analyticsHost`, `siteId` and `apiKey` are required. */
export interface PathlightOptions {
  /**
   * The service URL including its `/api` prefix, e.g. `https://analytics.example.com/api` (a trailing
   * slash is tolerated). http: or https: only; no credentials, query or fragment. Calls go to
   * `POST {analyticsHost}/track`.
   */
  analyticsHost: string
  /** The site's id: a positive integer (at most 4294967295) as a number or a decimal string. */
  siteId: string | number
  /**
   * An API key of a member of the site's organization, sent as `Authorization: Bearer <key>`. Never logged.
   */
  apiKey: string
  /** Log each request and answer to the console, prefixed `[pathlight]`, the key redacted. Default false. */
  debug?: boolean | undefined
  /** Timeout of one attempt (connecting, sending, reading the answer), in ms. Default 10000. */
  timeoutMs?: number | undefined
  /**
   * Retries after the first attempt, for network errors and timeouts, 5xx answers and 429. Default 3 (at
   * most 4 requests per call); 0 disables retrying. Other 4xx answers are never retried.
   */
  maxRetries?: number | undefined
  /**
   * Backoff before retry n (1-based) when the server gave no `Retry-After`:
   * `min(backoffMaxMs, backoffBaseMs * 2 ** (n - 1))` times a random factor in [0.5, 1]. Default 500.
   */
  backoffBaseMs?: number | undefined
  /** Upper bound of one backoff delay, in ms. Default 10000. */
  backoffMaxMs?: number | undefined
  /**
   * The longest `Retry-After` (429, 503) the client waits before retrying, in ms. A longer one is not
   * waited: the call rejects at once with the error, which carries `retryAfterSeconds`. Default 60000.
   */
  maxRetryAfterMs?: number | undefined
}

/**
 * The page and visitor fields of a tracking call, as the tracking endpoint names them. All optional;
 * forward `ip_address` and `user_agent` from the visitor's request, or the server geolocates and parses
 * your server's own address and user agent. The server validates lengths (a 400 names the field).
 */
export interface TrackPayload {
  /** Host of the page, e.g. `example.com` (at most 253 characters). */
  hostname?: string | undefined
  /** Path of the page, e.g. `/pricing` (at most 2048 characters; the server stores `/` when empty). */
  pathname?: string | undefined
  /** Query string without `?`, e.g. `utm_source=news&x=1`; UTM fields are derived from it. */
  querystring?: string | undefined
  /** Title of the page (at most 512 characters). */
  page_title?: string | undefined
  /** The referring URL; the channel is derived from it. */
  referrer?: string | undefined
  /** Your own stable id for the visitor (at most 256 characters); otherwise one is derived from IP and UA. */
  user_id?: string | undefined
  /** The visitor's `User-Agent` header (at most 512 characters): browser, OS and device come from it. */
  user_agent?: string | undefined
  /** The visitor's IPv4 or IPv6 address: country, region and city come from it; it is never stored. */
  ip_address?: string | undefined
  /** Screen width in CSS pixels, an integer from 0 to 100000. */
  screenWidth?: number | undefined
  /** Screen height in CSS pixels, an integer from 0 to 100000. */
  screenHeight?: number | undefined
  /** The visitor's language, e.g. `en-US` (at most 35 characters). */
  language?: string | undefined
}

/** A scalar custom-event property value. Numbers must be finite. */
export type PropertyScalar = string | number | boolean

/** A custom-event property value: a scalar or a flat array of scalars (no objects, no nested arrays). */
export type PropertyValue = PropertyScalar | readonly PropertyScalar[]

/**
 * Custom-event properties: keys to {@link PropertyValue}s. Keys whose value is `undefined` are left out.
 * Serialized as the JSON object string the endpoint expects (at most 2048 characters, checked by the server).
 */
export type EventProperties = { readonly [key: string]: PropertyValue | undefined }

/**
 * Constrains a properties object type `P` so that every value is a {@link PropertyValue}: accepts
 * interfaces and type aliases alike, and rejects object, `null`, `Date` or nested-array values at compile
 * time.
 */
export type PropertiesOf<P> = { readonly [K in keyof P]: PropertyValue | undefined }

/** `P` when it is an object type; `never` for primitives, arrays and functions: properties are an object. */
export type ObjectOnly<P> = P extends
  | readonly unknown[]
  | ((...args: never[]) => unknown)
  | string
  | number
  | boolean
  | bigint
  | symbol
  ? never
  : P

/**
 * The server's answer to an accepted call: `{ success: true }` when the event was recorded, or
 * `{ success: true, tracked: false, reason }` when the site's configuration excluded it (e.g. `excluded_ip`,
 * `excluded_country`): nothing is stored, and that is not an error.
 */
export interface TrackResponse {
  success: true
  /** `false` when the event was excluded by the site's configuration; absent when it was recorded. */
  tracked?: false
  /** Why it was excluded, e.g. `excluded_ip` or `excluded_country`. */
  reason?: string
}
