/**
 * The body that changes a site's configuration (`PUT /api/sites/{siteId}/config`): any subset of its
 * fields, with the messages a 400 names the field by. `excludedIPs` entries are IPv4/IPv6 addresses or
 * CIDR ranges (`ip-entry.ts`); `excludedCountries` ISO 3166-1 alpha-2 codes, upper-cased;
 * `retentionDays` whole UTC days of events kept (30-3650), null for the operator's default;
 * `replaySampleRate` (0-1) and `replayRetentionDays` (1-365) govern session replay. A problem of a
 * list's entry is named by its 0-based index (`entry 1: ...`).
 */
import { z } from 'zod'
import { isCountryCode } from './country-code.js'
import { isValidIpOrCidr } from './ip-entry.js'
import { documentAs } from './openapi-registry.js'

/** Entries of the excluded lists, and the bounds of the periods (days). */
export const MAX_EXCLUDED_IPS = 500
export const MAX_EXCLUDED_COUNTRIES = 250
/** The shortest retention period: a month of history, so month-over-month comparisons keep working. */
export const MIN_RETENTION_DAYS = 30
/** The longest retention period that is not "forever": ten years. */
export const MAX_RETENTION_DAYS = 3650
/** The longest replay retention a site may set, in days. */
export const MAX_REPLAY_RETENTION_DAYS = 365

const bool = z.boolean({ error: 'must be true or false' })

/**
 * A list of text entries, each trimmed (and `normalize`d), at most `maxLength` characters and
 * accepted by `check` (else `problem(entry)`); each entry's problem names it `entry <i>: `.
 * Documented as an array of strings of that length.
 */
const entryList = (options: {
  max: number
  maxLength: number
  tooLong: string
  normalize?: (entry: string) => string
  check: (entry: string) => boolean
  problem: (entry: string) => string
}) =>
  documentAs(
    z
      .array(z.unknown(), { error: 'must be an array of strings' })
      .max(options.max, `at most ${options.max} entries`)
      .transform((entries, ctx) =>
        entries.map((raw, i) => {
          const fail = (message: string) => {
            ctx.addIssue({ code: 'custom', path: [i], message: `entry ${i}: ${message}` })
            return ''
          }
          if (typeof raw !== 'string') return fail('must be a string')
          const text = raw.trim()
          if (text.length > options.maxLength) return fail(options.tooLong)
          const entry = options.normalize ? options.normalize(text) : text
          return options.check(entry) ? entry : fail(options.problem(entry))
        }),
      ),
    z.array(z.string().max(options.maxLength)).max(options.max),
  )

/** The unknown keys' problem, naming them after zod's message. */
const unknownKeys = (issue: { code?: string; keys?: string[] }) => {
  if (issue.code !== 'unrecognized_keys' || !issue.keys) return undefined
  const keys = issue.keys
  const quoted = keys.map((key) => `"${key}"`).join(', ')
  return `Unrecognized key${keys.length > 1 ? 's' : ''}: ${quoted}: ${keys.join(', ')}`
}

/** Any subset of a site's configuration; unknown fields are refused. */
export const siteConfigUpdate = z
  .strictObject(
    {
      public: bool,
      saltUserIds: bool,
      blockBots: bool,
      excludedIPs: entryList({
        max: MAX_EXCLUDED_IPS,
        maxLength: 64,
        tooLong: 'entries must be at most 64 characters',
        check: isValidIpOrCidr,
        problem: (entry) => `"${entry}" is not an IP address or CIDR range`,
      }),
      excludedCountries: entryList({
        max: MAX_EXCLUDED_COUNTRIES,
        maxLength: 8,
        tooLong: 'entries must be country codes',
        normalize: (code) => code.toUpperCase(),
        check: isCountryCode,
        problem: (code) => `"${code}" is not an ISO 3166-1 alpha-2 country code`,
      }),
      sessionReplay: bool,
      webVitals: bool,
      trackErrors: bool,
      trackOutbound: bool,
      trackUrlParams: bool,
      trackInitialPageView: bool,
      trackSpaNavigation: bool,
      trackButtonClicks: bool,
      trackCopy: bool,
      trackFormInteractions: bool,
      heatmaps: bool,
      retentionDays: z
        .int({
          error: `must be a whole number of days (${MIN_RETENTION_DAYS}-${MAX_RETENTION_DAYS}) or null`,
        })
        .min(MIN_RETENTION_DAYS, `must be at least ${MIN_RETENTION_DAYS} days`)
        .max(MAX_RETENTION_DAYS, `must be at most ${MAX_RETENTION_DAYS} days`)
        .nullable(),
      replaySampleRate: z
        .number({ error: 'must be a number from 0 to 1' })
        .min(0, 'must be at least 0')
        .max(1, 'must be at most 1'),
      replayRetentionDays: z
        .int({ error: `must be a whole number of days (1-${MAX_REPLAY_RETENTION_DAYS})` })
        .min(1, 'must be at least 1 day')
        .max(MAX_REPLAY_RETENTION_DAYS, `must be at most ${MAX_REPLAY_RETENTION_DAYS} days`),
    },
    { error: unknownKeys },
  )
  .partial()

/** A parsed configuration change. */
export type SiteConfigUpdate = z.output<typeof siteConfigUpdate>
