/**
 * Where events and recordings arrive: `POST /api/track` (the tracker, the Node client, any server)
 * and `POST /api/replay` (the recorder of the tracking script), each with its CORS preflight. Both
 * take their body raw (`rawBody`): the ingest pipeline parses a tracking body with
 * `trackPayloadSchema`, the replay ingest a batch with `replayBatchSchema`, once each, and answer
 * every outcome themselves (`raw`).
 */

import { replayResponse } from '../behaviour-schemas.js'
import { endpoint } from '../contract.js'
import { replayBatchSchema } from '../replay-batch.js'
import { trackResponse } from '../response-schemas.js'
import { trackPayloadSchema } from '../track-payload.js'
import type { Address } from './addresses.js'
import * as at from './addresses.js'

/**
 * The CORS preflight of a public endpoint that browsers POST to from any site: allows POST with
 * `Content-Type` from any origin. `what` names the endpoint ("the tracking endpoint").
 */
const preflight = <const A extends Omit<Address, 'name'> & { name: string }>(address: A, what: string) =>
  endpoint({
    ...address,
    summary: `CORS preflight of ${what}`,
    tag: 'Tracking',
    access: 'public',
    raw: true,
    responses: { 204: { description: 'Allowed: POST with Content-Type from any origin (no Authorization)' } },
  })

/** `POST /api/track`: one event. */
export const trackEndpoint = endpoint({
  ...at.track,
  summary: 'Track an event',
  description:
    'The body may be JSON or the same JSON as `text/plain` (beacons), at most 64 KB. Without an API ' +
    "key the request's Origin, Referer or `hostname` must be the site's domain (or a subdomain) and bots " +
    "are dropped when the site blocks them; the body's `ip_address` and `user_agent` are read only with an " +
    "API key (without one, the connection's address and the User-Agent header count). Answers 200 only " +
    'once the event is committed.',
  tag: 'Tracking',
  access: 'public',
  who: "an API key is optional (server-side tracking); its user must be in the site's organization",
  security: [{}, { apiKey: [] }],
  body: trackPayloadSchema,
  bodyMediaTypes: ['application/json', 'text/plain'],
  rawBody: true,
  raw: true,
  responses: {
    200: { description: 'Recorded, or excluded (`tracked:false`, nothing stored)', schema: trackResponse },
    400: 'Invalid payload (`details.fieldErrors` names the fields)',
    401: 'Invalid API key',
    403: 'Access denied (key user not a member), domain not allowed, bot detected, or over the limit',
    404: 'Site not found',
    413: 'Body over 64 KB',
    429: 'More than the per-key limit (500 per 10 minutes by default); see `Retry-After`',
    503: 'Events store unavailable; nothing acknowledged',
  },
})

/** `OPTIONS /api/track`. */
export const trackPreflightEndpoint = preflight(at.trackPreflight, 'the tracking endpoint')

/** `POST /api/replay`: a batch of the visitor's session recording. */
export const recordReplayEndpoint = endpoint({
  ...at.recordReplay,
  summary: 'Record a session replay batch',
  description:
    "A batch of rrweb events of the visitor's current session, as JSON or gzip (told by its magic " +
    'bytes 1f 8b; at most 1 MB as sent, 16 MB inflated), usually as `text/plain`. Stored only when ' +
    "the site's `sessionReplay` is on and the session is sampled (`replaySampleRate`, decided per " +
    "session id). The checks are those of a keyless `/api/track`: Origin or Referer on the site's " +
    'domain, bots refused when the site blocks them, excluded IPs and countries dropped. The batch ' +
    "joins the session the same visitor's events get (same IP and user agent, or `user_id`). A " +
    'session holds at most 20 MB; later batches are acknowledged with `recorded:false`. Answers ' +
    '`recorded:true` only once the batch is committed; it is kept `replayRetentionDays` days.',
  tag: 'Tracking',
  access: 'public',
  body: replayBatchSchema,
  bodyMediaTypes: ['text/plain', 'application/json', 'application/octet-stream'],
  rawBody: true,
  raw: true,
  responses: {
    200: {
      description: 'Recorded, or deliberately not (`recorded:false` with the reason)',
      schema: replayResponse,
    },
    400: 'Invalid payload: not JSON or gzip, or `details.fieldErrors` names the fields',
    403: 'Domain not allowed, or bot detected',
    404: 'Site not found',
    413: 'Body over 1 MB as sent, or over 16 MB inflated; nothing stored',
    503: 'Events store unavailable; nothing acknowledged',
  },
})

/** `OPTIONS /api/replay`. */
export const replayPreflightEndpoint = preflight(at.replayPreflight, 'the session replay endpoint')

/** Every tracking endpoint (the route/contract coverage test reads these). */
export const trackingEndpoints = [
  trackEndpoint,
  trackPreflightEndpoint,
  recordReplayEndpoint,
  replayPreflightEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    track: typeof trackEndpoint
    trackPreflight: typeof trackPreflightEndpoint
    recordReplay: typeof recordReplayEndpoint
    replayPreflight: typeof replayPreflightEndpoint
  }
}
