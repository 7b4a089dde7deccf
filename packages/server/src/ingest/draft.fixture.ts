/**
 * Test support for the ingest stages: a `Draft` as `ingest.accept` hands it to the first stage (body
 * parsed with the real schema, site compiled by the real `toIngestSite`, event row from the real
 * `toEventRow`), and `IngestDeps` on real implementations: a migrated SQLite metadata store in memory
 * behind the API keys, roles, user-id salts and site lookup, the in-process session store and pageview
 * quota, and a fixed clock. Every part can be overridden; nothing is a mock.
 *
 * Defaults: site 1 of organization `org-1` on example.com with a new site's settings (`siteDefaults`),
 * a keyless pageview of / from a browser on https://example.com (desktop Chrome, 203.0.113.7), received
 * at {@link NOW}.
 */
import { type ApiKeys, createApiKeys } from '../auth/api-keys.js'
import { roleIn } from '../organizations/organizations.js'
import type { SiteRow } from '../sites/site.js'
import { findSite, replayDefaults, siteDefaults } from '../sites/sites.js'
import type { EventRow } from '../storage/events/event-row.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { type MetadataStore, openMetadataStore } from '../storage/metadata/db.js'
import type { Role } from '../storage/metadata/schema.js'
import type { IngestDeps } from './deps.js'
import type { Draft, Incoming } from './draft.js'
import { createSiteLookup, type IngestSite, toIngestSite } from './ingest-site.js'
import { parsePayload } from './stages/parse-payload.js'
import { createMemoryEventIdRegistry } from './state/event-id-registry.js'
import { createMemoryPageviewQuota } from './state/pageview-quota.js'
import { createMemorySessionStore } from './state/session-store.js'
import { createUserIdSalts } from './state/user-id-salts.js'
import { toEventRow } from './to-event-row.js'

/** The receipt time of the default draft and the default clock: 2026-03-10 10:00:00 UTC, epoch ms. */
export const NOW = Date.parse('2026-03-10T10:00:00.000Z')
/** The fixture site's id and organization. */
export const SITE_ID = 1
export const ORGANIZATION_ID = 'org-1'
/** The default User-Agent header: desktop Chrome 120 on Windows 10. */
export const DESKTOP_CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
/** The secret `salts.instance` holds (anonymous ids of sites without `saltUserIds`). */
export const INSTANCE_SECRET = 'instance-secret'

/** A site's settings as the stages see them, with the exclusion lists as the user enters them. */
export type SiteSettings = Partial<Omit<IngestSite, 'isExcludedIp' | 'excludedCountries'>> & {
  /** Addresses and CIDR ranges (IPv4 and IPv6). */
  excludedIps?: string[]
  /** ISO 3166-1 alpha-2 codes, any case. */
  excludedCountries?: string[]
}

/** The fixture site with `settings` applied, compiled as the site lookup compiles a stored row. */
export function ingestSite(settings: SiteSettings = {}): IngestSite {
  const at = new Date(NOW).toISOString()
  const flag = (value: boolean | undefined, fallback: boolean) => ((value ?? fallback) ? 1 : 0)
  const row: SiteRow = {
    site_id: settings.siteId ?? SITE_ID,
    id: 'site-1',
    organization_id: settings.organizationId ?? ORGANIZATION_ID,
    name: 'Example',
    domain: settings.domain ?? 'example.com',
    created_by: 'owner',
    created_at: at,
    updated_at: at,
    public: flag(undefined, siteDefaults.public),
    salt_user_ids: flag(settings.saltUserIds, siteDefaults.saltUserIds),
    block_bots: flag(settings.blockBots, siteDefaults.blockBots),
    session_replay: flag(settings.sessionReplay, siteDefaults.sessionReplay),
    web_vitals: flag(settings.webVitals, siteDefaults.webVitals),
    track_errors: flag(settings.trackErrors, siteDefaults.trackErrors),
    track_outbound: flag(settings.trackOutbound, siteDefaults.trackOutbound),
    track_url_params: flag(settings.trackUrlParams, siteDefaults.trackUrlParams),
    track_initial_pageview: flag(undefined, siteDefaults.trackInitialPageView),
    track_spa_navigation: flag(undefined, siteDefaults.trackSpaNavigation),
    track_button_clicks: flag(settings.trackButtonClicks, siteDefaults.trackButtonClicks),
    track_copy: flag(settings.trackCopy, siteDefaults.trackCopy),
    track_form_interactions: flag(settings.trackFormInteractions, siteDefaults.trackFormInteractions),
    heatmaps: flag(settings.heatmaps, siteDefaults.heatmaps),
    excluded_ips: JSON.stringify(settings.excludedIps ?? []),
    excluded_countries: JSON.stringify(settings.excludedCountries ?? []),
    monthly_pageview_limit: settings.monthlyPageviewLimit ?? null,
    private_link_key: null,
    retention_days: null,
    replay_sample_rate: settings.replaySampleRate ?? replayDefaults.replaySampleRate,
    replay_retention_days: settings.replayRetentionDays ?? replayDefaults.replayRetentionDays,
  }
  return toIngestSite(row)
}

export interface DraftParts {
  site?: SiteSettings
  /** Body fields besides `site_id` (default: a pageview of / on example.com); they replace the defaults. */
  body?: Record<string, unknown>
  /** Transport fields: Authorization, Origin, Referer, User-Agent header, socket address. */
  incoming?: Partial<Omit<Incoming, 'body'>>
  /** Receipt time, epoch ms (default {@link NOW}). */
  now?: number
  /** As `authenticateKey` leaves it (default false: a keyless request). */
  authenticated?: boolean
}

/**
 * The draft for this request as the stages see it: with `authenticated` (as `authenticateKey` leaves a
 * keyed request) the body's `ip_address` and `user_agent` win over the socket address and the header;
 * without, the transport's own are used.
 * @throws when the body fails the tracking schema (a fixture mistake, not a stage's case)
 */
export function stageDraft(parts: DraftParts = {}): Draft {
  const incoming: Incoming = {
    body: { site_id: String(SITE_ID), hostname: 'example.com', pathname: '/', ...parts.body },
    authorization: undefined,
    origin: 'https://example.com',
    referer: undefined,
    userAgent: DESKTOP_CHROME,
    ip: '203.0.113.7',
    ...parts.incoming,
  }
  const parsed = parsePayload(incoming)
  if (!parsed.ok) throw new Error(`stageDraft: the body is refused: ${JSON.stringify(parsed.reason)}`)
  const { payload } = parsed
  const site = ingestSite(parts.site)
  const receivedAt = parts.now ?? NOW
  return {
    incoming,
    now: receivedAt,
    payload,
    site,
    authenticated: parts.authenticated ?? false,
    ip: (parts.authenticated && payload.ip_address) || incoming.ip,
    userAgent: (parts.authenticated ? payload.user_agent : undefined) ?? incoming.userAgent ?? '',
    newSession: false,
    row: toEventRow(payload, site.siteId, receivedAt),
  }
}

/** The `columns` of the draft's event row, for asserting what a stage filled in. */
export function rowColumns<Column extends keyof EventRow>(
  draft: Draft,
  columns: readonly Column[],
): Pick<EventRow, Column> {
  return Object.fromEntries(columns.map((column) => [column, draft.row[column]])) as Pick<EventRow, Column>
}

/**
 * An events store that holds, as far as the pageview quota can tell, `pageviews['YYYY-MM']` pageviews
 * of every site in that UTC month (0 for a month not given): it answers the quota's count query and
 * counts the queries it was asked. It stores nothing: `insert` and `command` reject.
 */
export function monthlyPageviews(pageviews: Record<string, number> = {}): EventsStore & { queries: number } {
  const store = {
    kind: 'chdb' as const,
    queries: 0,
    async query<Row>(_sql: string, params: Record<string, unknown> = {}): Promise<Row[]> {
      store.queries++
      const month = String(params.month ?? '').slice(0, 7)
      return [{ c: pageviews[month] ?? 0 }] as Row[]
    },
    insert: () => Promise.reject(new Error('monthlyPageviews stores no events')),
    insertEncoded: () => Promise.reject(new Error('monthlyPageviews stores no events')),
    insertReplay: () => Promise.reject(new Error('monthlyPageviews stores no replays')),
    command: () => Promise.reject(new Error('monthlyPageviews runs no statements')),
    close: () => Promise.resolve(),
  }
  return store
}

/** Deps for a stage test, with the full `ApiKeys` (tests create keys) and their metadata store. */
export interface StageDeps extends Omit<IngestDeps, 'apiKeys'> {
  apiKeys: ApiKeys
  /** The migrated SQLite store in memory behind `apiKeys`, `roleIn`, `salts` and `sites`. */
  metadata: MetadataStore
  /**
   * Create user `userId` (email `<userId>@example.com`) with `role` in the fixture's organization, or in
   * none with null. @returns the user id
   */
  addUser(userId: string, role: Role | null): Promise<string>
  /** Close the metadata store and the session store. */
  close(): Promise<void>
}

/** Open the deps of a stage test; `overrides` replace any part. Call `close()` after the tests. */
export async function openStageDeps(
  overrides: Partial<Omit<IngestDeps, 'apiKeys'>> = {},
): Promise<StageDeps> {
  const metadata = await openMetadataStore({ sqlite: ':memory:' })
  const { db } = metadata
  const clock = overrides.clock ?? (() => NOW)
  const sessions = overrides.sessions ?? createMemorySessionStore()
  const at = new Date(NOW).toISOString()
  const addUser = async (userId: string, role: Role | null) => {
    await db
      .insertInto('user')
      .values({
        id: userId,
        name: userId,
        email: `${userId}@example.com`,
        emailVerified: 0,
        image: null,
        createdAt: at,
        updatedAt: at,
      })
      .execute()
    if (role === null) return userId
    await db
      .insertInto('organization')
      .values({ id: ORGANIZATION_ID, name: 'Org', slug: 'org', created_by: userId, created_at: at })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute()
    await db
      .insertInto('member')
      .values({
        id: `member-${userId}`,
        organization_id: ORGANIZATION_ID,
        user_id: userId,
        role,
        created_at: at,
      })
      .execute()
    return userId
  }
  return {
    sites: createSiteLookup((siteId) => findSite(db, siteId), { clock }),
    roleIn: (userId, organizationId) => roleIn(db, userId, organizationId),
    geolocator: null,
    salts: createUserIdSalts(db, INSTANCE_SECRET),
    quota: createMemoryPageviewQuota(monthlyPageviews()),
    eventIds: createMemoryEventIdRegistry(clock),
    ...overrides,
    apiKeys: createApiKeys(db, { clock }),
    sessions,
    clock,
    metadata,
    addUser,
    async close() {
      await sessions.close()
      await metadata.close()
    },
  }
}
