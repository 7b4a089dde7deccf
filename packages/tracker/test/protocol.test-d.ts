/**
 * The tracker's shapes against `@pathlight/protocol`, checked by `tsc --noEmit -p packages/tracker`
 * (never run). The browser script keeps its own declarations (no zod near the bundle); these checks
 * fail when the wire shapes move away from them.
 */
import type {
  TrackRequest,
  EventType as WireEventType,
  TrackerConfig as WireTrackerConfig,
} from '@pathlight/protocol'
import { expectTypeOf } from 'vitest'
import type { EventFields, EventType, TrackerConfig } from '../src/types.js'

expectTypeOf<EventType>().toEqualTypeOf<WireEventType>()
expectTypeOf<TrackerConfig>().toEqualTypeOf<WireTrackerConfig>()

/** The body `create-client.ts` posts: the page fields, then the event's own fields. */
type SentBody = {
  site_id: string
  type: EventType
  pathname: string
  hostname: string
  page_title: string
  querystring: string
  referrer: string
  screenWidth: number
  screenHeight: number
  language: string
} & EventFields
expectTypeOf<SentBody>().toExtend<TrackRequest>()
