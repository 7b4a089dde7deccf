/**
 * The state of one tracking request as it moves through the pipeline: the transport-free input
 * (`Incoming`), the parsed payload, the site, and the event row the stages fill in.
 */
import type { EventRow } from '../storage/events/event-row.js'
import type { IngestSite } from './ingest-site.js'
import type { TrackPayload } from './payload.js'

/** A tracking request without transport types: what `http/track.ts` hands to `ingest.accept`. */
export interface Incoming {
  /** The request body: parsed JSON (object expected), or a string when sent as text/plain. */
  body: unknown
  authorization: string | undefined
  origin: string | undefined
  referer: string | undefined
  userAgent: string | undefined
  /** The client address as the socket (or a trusted proxy) reports it. */
  ip: string
}

export interface Draft {
  incoming: Incoming
  /** Receipt time, epoch ms; becomes the event's timestamp. */
  now: number
  payload: TrackPayload
  site: IngestSite
  /** True when a valid API key of a member authenticated the request (domain and bot checks skipped). */
  authenticated: boolean
  /** Client IP used for geolocation, exclusions and the anonymous id; never stored. */
  ip: string
  userAgent: string
  /** True when this event started a new session. */
  newSession: boolean
  /** True when the user id is one the site gave (the body's, or a link of `POST /api/identify`). */
  identified?: boolean
  /** The session store key when it is not `${siteId}:${user_id}` (an identified visitor's, `putUserId`). */
  sessionKey?: string
  row: EventRow
}
