/**
 * The ingest pipeline of `POST /api/track`, in order. `parsePayload` and `findSite` open it
 * (they create the draft); every later stage reads and fills the draft and returns ok or a reject reason.
 * Verbs: `put*` enriches, `drop*` filters, `check*` consults metadata.
 */
import type { IngestDeps } from './deps.js'
import type { Draft } from './draft.js'
import type { StageResult } from './outcome.js'
import { authenticateKey } from './stages/authenticate-key.js'
import { checkDomain } from './stages/check-domain.js'
import { checkQuota } from './stages/check-quota.js'
import { dropBots } from './stages/drop-bots.js'
import { dropDisabledTypes } from './stages/drop-disabled-types.js'
import { dropExcludedCountry } from './stages/drop-excluded-country.js'
import { dropExcludedIp } from './stages/drop-excluded-ip.js'
import { dropOrphanEngagement } from './stages/drop-orphan-engagement.js'
import { dropRepeatedEvent } from './stages/drop-repeated-event.js'
import { putChannel } from './stages/put-channel.js'
import { putGeolocation } from './stages/put-geolocation.js'
import { putSession } from './stages/put-session.js'
import { putUserAgent } from './stages/put-user-agent.js'
import { putUserId } from './stages/put-user-id.js'

export type Stage = (draft: Draft, deps: IngestDeps) => StageResult | Promise<StageResult>

export const stages = [
  authenticateKey,
  dropDisabledTypes,
  checkDomain,
  dropBots,
  dropExcludedIp,
  putGeolocation,
  dropExcludedCountry,
  checkQuota,
  putUserAgent,
  putChannel,
  putUserId,
  putSession,
  dropOrphanEngagement,
  dropRepeatedEvent,
] as const satisfies readonly Stage[]
