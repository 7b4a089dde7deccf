/**
 * Site configuration (the object of `PUT /api/sites/{id}/config`): read, and partial update with
 * validation. Only the fields sent change. `excludedIPs` entries are IPv4/IPv6 addresses or CIDR
 * ranges; `excludedCountries` are ISO 3166-1 alpha-2 codes, stored upper case; `retentionDays` is whole
 * UTC days of events kept (30-3650), null for the operator's default; `replaySampleRate` (0-1) and
 * `replayRetentionDays` (1-365) govern session replay. An update that changes
 * anything is audited (`site.config_changed`) in its transaction and announced as a site change.
 */
import type { SiteConfig as WireSiteConfig } from '@pathlight/protocol'
import { z } from 'zod'
import { recordAudit } from '../audit/audit-log.js'
import { isValidIpOrCidr } from '../ingest/enrich/ip-match.js'
import { MAX_RETENTION_DAYS, MIN_RETENTION_DAYS } from '../retention/retention-period.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { badRequest } from '../shared/errors.js'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { fromBool, type SiteTable, toBool } from '../storage/metadata/schema.js'
import type { SiteRow } from './site.js'

/** A site's configuration as the API returns it: the protocol's wire shape. */
export type SiteConfig = WireSiteConfig

export const MAX_EXCLUDED_IPS = 500
/** The longest replay retention a site may set, in days. */
export const MAX_REPLAY_RETENTION_DAYS = 365
export const MAX_EXCLUDED_COUNTRIES = 250

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' })
/** Two-letter region codes ICU names that are not countries (or not ISO 3166-1: UK is GB). */
const notCountries = new Set(['EU', 'EZ', 'UN', 'ZZ', 'QO', 'UK', 'XA', 'XB'])
/**
 * True for an ISO 3166-1 alpha-2 code that ICU (Node's Intl data) names, e.g. 'DE', plus 'XK' (Kosovo,
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

const bool = z.boolean({ error: 'must be true or false' })

export const siteConfigUpdate = z
  .object({
    public: bool,
    saltUserIds: bool,
    blockBots: bool,
    excludedIPs: z
      .array(z.string().trim().max(64, 'entries must be at most 64 characters'), {
        error: 'must be an array of strings',
      })
      .max(MAX_EXCLUDED_IPS, `at most ${MAX_EXCLUDED_IPS} entries`)
      .superRefine((entries, ctx) => {
        entries.forEach((entry, i) => {
          if (!isValidIpOrCidr(entry)) {
            ctx.addIssue({
              code: 'custom',
              path: [i],
              message: `"${entry}" is not an IP address or CIDR range`,
            })
          }
        })
      }),
    excludedCountries: z
      .array(z.string().trim().max(8, 'entries must be country codes'), {
        error: 'must be an array of strings',
      })
      .max(MAX_EXCLUDED_COUNTRIES, `at most ${MAX_EXCLUDED_COUNTRIES} entries`)
      .transform((codes) => codes.map((c) => c.toUpperCase()))
      .superRefine((codes, ctx) => {
        codes.forEach((code, i) => {
          if (!isCountryCode(code)) {
            ctx.addIssue({
              code: 'custom',
              path: [i],
              message: `"${code}" is not an ISO 3166-1 alpha-2 country code`,
            })
          }
        })
      }),
    sessionReplay: bool,
    webVitals: bool,
    trackErrors: bool,
    trackOutbound: bool,
    trackUrlParams: bool,
    retentionDays: z
      .int({ error: `must be a whole number of days (${MIN_RETENTION_DAYS}-${MAX_RETENTION_DAYS}) or null` })
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
  })
  .partial()
  .strict()

export type SiteConfigUpdate = z.infer<typeof siteConfigUpdate>

/** The configuration of a site row. */
export function toSiteConfig(row: SiteRow): SiteConfig {
  return {
    public: toBool(row.public),
    saltUserIds: toBool(row.salt_user_ids),
    blockBots: toBool(row.block_bots),
    excludedIPs: parseList(row.excluded_ips),
    excludedCountries: parseList(row.excluded_countries),
    sessionReplay: toBool(row.session_replay),
    webVitals: toBool(row.web_vitals),
    trackErrors: toBool(row.track_errors),
    trackOutbound: toBool(row.track_outbound),
    trackUrlParams: toBool(row.track_url_params),
    retentionDays: row.retention_days === null ? null : Number(row.retention_days),
    replaySampleRate: Number(row.replay_sample_rate),
    replayRetentionDays: Number(row.replay_retention_days),
  }
}

/**
 * Apply a partial update by `actorUserId`, audit what changed and announce it (caches of the site drop
 * it at once). Duplicates in the lists are removed, order kept.
 * @returns the configuration after the update and the names of the fields that changed
 * @throws AppError 400 naming each invalid field (and entry index) in `details.fieldErrors`
 */
export async function updateSiteConfig(
  deps: { db: MetadataDb; changes: ChangeFeed; clock?: Clock },
  row: SiteRow,
  actorUserId: string,
  input: unknown,
): Promise<{ config: SiteConfig; changed: (keyof SiteConfig)[] }> {
  const clock = deps.clock ?? systemClock
  const parsed = siteConfigUpdate.safeParse(input ?? {})
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {}
    const formErrors: string[] = []
    for (const issue of parsed.error.issues) {
      if (issue.path.length === 0) {
        const keys = 'keys' in issue ? (issue.keys as string[]) : []
        formErrors.push(keys.length ? `${issue.message}: ${keys.join(', ')}` : issue.message)
        continue
      }
      const [field, index] = issue.path
      const key = String(field)
      const message = typeof index === 'number' ? `entry ${index}: ${issue.message}` : issue.message
      fieldErrors[key] = [...(fieldErrors[key] ?? []), message]
    }
    throw badRequest('Invalid site configuration', { fieldErrors, formErrors })
  }
  const update = parsed.data
  const set: Partial<Omit<SiteTable, 'site_id'>> = {}
  const boolColumns = {
    public: 'public',
    saltUserIds: 'salt_user_ids',
    blockBots: 'block_bots',
    sessionReplay: 'session_replay',
    webVitals: 'web_vitals',
    trackErrors: 'track_errors',
    trackOutbound: 'track_outbound',
    trackUrlParams: 'track_url_params',
  } as const satisfies Record<string, keyof SiteTable>
  for (const [field, column] of Object.entries(boolColumns) as [
    keyof typeof boolColumns,
    keyof SiteTable,
  ][]) {
    const value = update[field]
    if (value !== undefined) (set as Record<string, unknown>)[column] = fromBool(value)
  }
  if (update.excludedIPs) set.excluded_ips = JSON.stringify([...new Set(update.excludedIPs)])
  if (update.excludedCountries)
    set.excluded_countries = JSON.stringify([...new Set(update.excludedCountries)])
  if (update.retentionDays !== undefined) set.retention_days = update.retentionDays
  if (update.replaySampleRate !== undefined) set.replay_sample_rate = update.replaySampleRate
  if (update.replayRetentionDays !== undefined) set.replay_retention_days = update.replayRetentionDays

  const before = toSiteConfig(row)
  if (Object.keys(set).length === 0) return { config: before, changed: [] }
  const result = await deps.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('site')
      .set({ ...set, updated_at: isoNow(clock) })
      .where('site_id', '=', row.site_id)
      .returningAll()
      .executeTakeFirstOrThrow()
    const config = toSiteConfig({ ...updated, site_id: Number(updated.site_id) })
    const changed = (Object.keys(config) as (keyof SiteConfig)[]).filter(
      (key) => JSON.stringify(config[key]) !== JSON.stringify(before[key]),
    )
    if (changed.length > 0) {
      await recordAudit(
        trx,
        {
          organizationId: row.organization_id,
          siteId: row.site_id,
          actorUserId,
          action: 'site.config_changed',
          details: { changed: Object.fromEntries(changed.map((key) => [key, config[key]])) },
        },
        clock,
      )
    }
    return { config, changed }
  })
  await deps.changes.announce({ kind: 'site', siteId: row.site_id })
  return result
}

function parseList(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json)
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
  } catch {
    return []
  }
}
