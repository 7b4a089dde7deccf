/**
 * The client's public types against `@pathlight/protocol`, checked by `tsc --noEmit -p packages/node`
 * (never run). The client keeps its own declarations so that its published `.d.ts` needs nothing at
 * install time; these checks fail when the wire shapes move away from them.
 */
import type {
  QueryApiAnswer,
  Stats,
  StatsMeta,
  TrackRequest,
  Annotation as WireAnnotation,
  CompareMode as WireCompareMode,
  PageMeta as WirePageMeta,
  PropertyKeyRow as WirePropertyKeyRow,
  PropertyValueRow as WirePropertyValueRow,
  TrackResponse as WireTrackResponse,
} from '@pathlight/protocol'
import { expectTypeOf } from 'vitest'
import type {
  Annotation,
  CompareMode,
  PageMeta,
  PropertiesAnswer,
  PropertyBreakdownAnswer,
  PropertyKeyRow,
  PropertyValueRow,
  QueryAnswer,
  StatsAnswer,
  TrackPayload,
  TrackResponse,
} from '../src/index.js'

/** The answer the client resolves with is exactly the server's. */
expectTypeOf<TrackResponse>().toEqualTypeOf<WireTrackResponse>()

/** Every page field the client sends is a field of the tracking body, with a type the server accepts. */
expectTypeOf<TrackPayload>().toExtend<Partial<TrackRequest>>()
expectTypeOf<keyof TrackPayload>().toExtend<keyof TrackRequest>()

/** A body as the client builds it (`client.ts`: `site_id` as a string, then the fields) is accepted. */
expectTypeOf<TrackPayload & { site_id: string; type: 'pageview' }>().toExtend<TrackRequest>()
expectTypeOf<
  TrackPayload & { site_id: string; type: 'custom_event'; event_name: string; properties?: string }
>().toExtend<TrackRequest>()

/** The reads: the comparison modes, an annotation and the stats answer are the server's. */
expectTypeOf<CompareMode>().toEqualTypeOf<WireCompareMode>()
expectTypeOf<Annotation>().toEqualTypeOf<WireAnnotation>()
expectTypeOf<Stats['current']>().toEqualTypeOf<StatsAnswer['data']['current']>()
expectTypeOf<Stats>().toExtend<StatsAnswer['data']>()
expectTypeOf<StatsMeta>().toExtend<StatsAnswer['meta']>()

/** The custom property reads: rows and paging are the server's. */
expectTypeOf<PropertyKeyRow>().toEqualTypeOf<WirePropertyKeyRow>()
expectTypeOf<PropertyValueRow>().toEqualTypeOf<WirePropertyValueRow>()
expectTypeOf<PageMeta>().toEqualTypeOf<WirePageMeta>()
expectTypeOf<PropertiesAnswer['data'][number]>().toEqualTypeOf<WirePropertyKeyRow>()
expectTypeOf<PropertyBreakdownAnswer['data'][number]>().toEqualTypeOf<WirePropertyValueRow>()

/** The Query API's answer is the server's. */
expectTypeOf<QueryApiAnswer>().toEqualTypeOf<QueryAnswer>()
