/**
 * The use case of `POST /api/identify` (Rybbit's web SDK calls it from `identify()` and `setTraits()`):
 * the sending browser's anonymous visitor id (its IP address and user agent, as `putUserId` derives it)
 * is linked to `user_id`, so that visitor's later events carry the user id in this session and later
 * ones, and `traits` are merged into the user's profile. The checks of a keyless tracking request come
 * first: the Origin (or Referer) on the site's domain, bots refused when the site blocks them.
 */
import type { IdentifyBody, TrackPayload } from '@pathlight/protocol'
import type { IngestDeps } from '../ingest/deps.js'
import type { Draft, Incoming } from '../ingest/draft.js'
import { toResponse } from '../ingest/outcome.js'
import { checkDomain } from '../ingest/stages/check-domain.js'
import { dropBots } from '../ingest/stages/drop-bots.js'
import { anonymousVisitorId } from '../ingest/stages/put-user-id.js'
import { toEventRow } from '../ingest/to-event-row.js'
import { errorBody } from '../shared/errors.js'
import { parseSiteId } from '../sites/sites.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { mergeTraits, TooManyTraitsError } from './user-profiles.js'
import type { VisitorLinks } from './visitor-links.js'

/** What identify needs: the ingest ports and the metadata store. */
export type IdentifyDeps = IngestDeps & { db: MetadataDb; visitorLinks: VisitorLinks }

/** A request without transport types. */
export type IdentifyIncoming = Omit<Incoming, 'body' | 'authorization'> & { body: IdentifyBody }

/** @returns the status and body to answer (never throws for bad input) */
export async function identify(
  deps: IdentifyDeps,
  incoming: IdentifyIncoming,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const { body } = incoming
  const siteId = parseSiteId(body.site_id)
  const site = siteId === null ? null : await deps.sites.get(siteId)
  if (!site) return toResponse({ kind: 'site_not_found' })
  const now = deps.clock()
  const payload: TrackPayload = { site_id: body.site_id, type: 'pageview' }
  const draft: Draft = {
    incoming: { ...incoming, body: undefined, authorization: undefined },
    now,
    payload,
    site,
    authenticated: false,
    ip: incoming.ip,
    userAgent: incoming.userAgent ?? '',
    newSession: false,
    row: toEventRow(payload, site.siteId, now),
  }
  for (const stage of [checkDomain, dropBots]) {
    const result = stage(draft)
    if (!result.ok) return toResponse(result.reason)
  }
  const visitorId = await anonymousVisitorId(draft, deps)
  try {
    await mergeTraits(deps.db, site.siteId, body.user_id, body.traits ?? {}, new Date(now).toISOString())
  } catch (error) {
    if (!(error instanceof TooManyTraitsError)) throw error
    return {
      status: 400,
      body: errorBody('Invalid body', { fieldErrors: { traits: [error.message] }, formErrors: [] }),
    }
  }
  await deps.visitorLinks.link(site.siteId, visitorId, body.user_id)
  return { status: 200, body: { success: true } }
}
