/**
 * What Rybbit's web SDK (`@rybbit/js`) calls besides `/api/track`, at `analyticsHost: <pathlight>/api`:
 * its switches, identify, and its session replay batches. Public, callable from any origin.
 */
import { z } from 'zod'
import { replayResponse } from '../behaviour-schemas.js'
import { endpoint } from '../contract.js'
import { identifyBody, identifyResponse, rybbitReplayBatch, rybbitTrackingConfig } from '../rybbit-schemas.js'
import * as at from './addresses.js'

const preflight = <const A extends { name: string; method: 'OPTIONS'; path: string }>(
  address: A,
  what: string,
) =>
  endpoint({
    ...address,
    summary: `CORS preflight of ${what}`,
    tag: 'Tracking',
    access: 'public',
    raw: true,
    responses: { 204: { description: 'Allowed: POST with Content-Type from any origin (no Authorization)' } },
  })

/** `GET /api/site/tracking-config/{siteId}`. */
export const rybbitTrackingConfigEndpoint = endpoint({
  ...at.rybbitTrackingConfig,
  summary: "A site's switches, for Rybbit's web SDK",
  description: 'The names `@rybbit/js` reads; cached 60 s by browsers.',
  tag: 'Tracking',
  access: 'public',
  raw: true,
  params: z.object({ siteId: z.string() }),
  responses: { 200: { description: 'The switches', schema: rybbitTrackingConfig }, 404: 'Site not found' },
})

/** `POST /api/identify`. */
export const identifyEndpoint = endpoint({
  ...at.identify,
  summary: 'Identify a visitor as a user',
  description:
    "Links the visitor who sends it (the anonymous id its IP address and user agent give) to `user_id`: that visitor's " +
    'later events carry the user id, in this session and later ones; `traits` are stored in the ' +
    "user's profile (last value per key). The checks of a keyless `/api/track` apply (domain, bots).",
  tag: 'Tracking',
  access: 'public',
  raw: true,
  body: identifyBody,
  responses: {
    200: { description: 'Linked and stored', schema: identifyResponse },
    400: 'Invalid body (`details.fieldErrors` names the fields), or the profile would hold over 100 traits',
    403: 'Domain not allowed, or bot detected',
    404: 'Site not found',
  },
})

/** `OPTIONS /api/identify`. */
export const identifyPreflightEndpoint = preflight(at.identifyPreflight, 'identify')

/** `POST /api/session-replay/record/{siteId}`. */
export const rybbitReplayEndpoint = endpoint({
  ...at.rybbitReplay,
  summary: "Record a batch of Rybbit's session replay",
  description:
    "rrweb events from `@rybbit/js`'s recorder: stored as a batch of the visitor's current session exactly as " +
    "`POST /api/replay` stores Pathlight's (same checks, sampling, limits, input values masked); refused " +
    '(`recorded:false`) when the site does not record replays.',
  tag: 'Tracking',
  access: 'public',
  raw: true,
  params: z.object({ siteId: z.string() }),
  body: rybbitReplayBatch,
  responses: {
    200: {
      description: 'Recorded, or deliberately not (`recorded:false` with the reason)',
      schema: replayResponse,
    },
    400: 'Invalid body (`details.fieldErrors` names the fields)',
    403: 'Domain not allowed, or bot detected',
    404: 'Site not found',
    413: 'Body over 1 MB',
    503: 'Events store unavailable; nothing acknowledged',
  },
})

/** `OPTIONS /api/session-replay/record/{siteId}`. */
export const rybbitReplayPreflightEndpoint = preflight(at.rybbitReplayPreflight, "Rybbit's replay endpoint")

/** Every endpoint of Rybbit's web SDK (the route/contract coverage test reads these). */
export const rybbitEndpoints = [
  rybbitTrackingConfigEndpoint,
  identifyEndpoint,
  identifyPreflightEndpoint,
  rybbitReplayEndpoint,
  rybbitReplayPreflightEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    rybbitTrackingConfig: typeof rybbitTrackingConfigEndpoint
    identify: typeof identifyEndpoint
    identifyPreflight: typeof identifyPreflightEndpoint
    rybbitReplay: typeof rybbitReplayEndpoint
    rybbitReplayPreflight: typeof rybbitReplayPreflightEndpoint
  }
}
