/**
 * What the ingest stages consult, as ports: each has an in-process and (where shared state matters
 * across API nodes) a Redis implementation, chosen in `main.ts`.
 */
import type { ApiKeys } from '../auth/api-keys.js'
import type { Clock } from '../shared/time.js'
import type { Role } from '../storage/metadata/schema.js'
import type { VisitorLinks } from '../users/visitor-links.js'
import type { Geolocator } from './enrich/geolocation.js'
import type { SiteLookup } from './ingest-site.js'
import type { EventIdRegistry } from './state/event-id-registry.js'
import type { PageviewQuota } from './state/pageview-quota.js'
import type { SessionStore } from './state/session-store.js'
import type { UserIdSalts } from './state/user-id-salts.js'

export interface IngestDeps {
  sites: SiteLookup
  apiKeys: Pick<ApiKeys, 'verify'>
  /** The role of a user in an organization (cached by the caller), null when not a member. */
  roleIn(userId: string, organizationId: string): Promise<Role | null>
  /** null when geolocation is switched off (GEOIP=off). */
  geolocator: Geolocator | null
  sessions: SessionStore
  salts: UserIdSalts
  quota: PageviewQuota
  /** The `event_id`s of the last 24 hours (idempotent tracking). */
  eventIds: EventIdRegistry
  clock: Clock
  /** Anonymous visitors linked to the user they identified as; without it, no links are followed. */
  visitorLinks?: VisitorLinks
}
