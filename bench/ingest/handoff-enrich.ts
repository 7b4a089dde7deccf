/**
 * The request-thread work design (a) would move to a worker (`handoff-cost.ts`): parse the tracking
 * body and enrich it as the pipeline's stages do, returning what they would put on the draft.
 */
import { detectBot } from '../../packages/server/src/ingest/enrich/bot.js'
import { type Geolocator, openGeolocator } from '../../packages/server/src/ingest/enrich/geolocation.js'
import { parseUserAgent } from '../../packages/server/src/ingest/enrich/user-agent.js'
import { parsePayload } from '../../packages/server/src/ingest/stages/parse-payload.js'

/** One tracked request as received: its JSON body, client address and `User-Agent`. */
export interface RawRequest {
  body: string
  ip: string
  userAgent: string
}

/** Open what `enrichOne` needs: the geolocation databases as `GEOIP=on` opens them (on disk). */
export async function openEnrichment(): Promise<Geolocator> {
  return openGeolocator()
}

/**
 * Parse and enrich one request: null when the body is refused, else the payload with the bot
 * verdict, the user agent's fields and the location (what a worker would post back).
 */
export function enrichOne(geo: Geolocator, request: RawRequest) {
  const parsed = parsePayload({
    body: request.body,
    ip: request.ip,
    userAgent: request.userAgent,
    authorization: undefined,
    origin: undefined,
    referer: undefined,
  })
  if (!parsed.ok) return null
  return {
    payload: parsed.payload,
    bot: detectBot(request.userAgent),
    agent: parseUserAgent(request.userAgent, parsed.payload.screenWidth),
    location: geo.lookup(request.ip),
  }
}
