/**
 * Compile-time tests of the public API, checked by `tsc --noEmit -p packages/node` (never run): each
 * `@ts-expect-error` line must fail to compile, every other line must compile.
 */
import { expectTypeOf } from 'vitest'
import {
  type EventProperties,
  Pathlight,
  PathlightAuthError,
  PathlightError,
  type PathlightErrorKind,
  PathlightInvalidPayloadError,
  PathlightNetworkError,
  PathlightRateLimitError,
  type PayloadErrorDetails,
  type PropertyValue,
  type TrackPayload,
  type TrackResponse,
  verifyWebhookSignature,
} from '../src/index.js'

declare const client: Pathlight
declare const maybe: string | undefined

export function constructorOptions() {
  new Pathlight({ analyticsHost: 'https://a.example/api', siteId: 1, apiKey: 'k' })
  new Pathlight({
    analyticsHost: 'https://a.example/api',
    siteId: '1',
    apiKey: 'k',
    debug: true,
    timeoutMs: 5000,
  })
  new Pathlight({
    analyticsHost: 'https://a.example/api',
    siteId: 1,
    apiKey: 'k',
    maxRetries: 0,
    backoffBaseMs: 1,
    backoffMaxMs: 2,
    maxRetryAfterMs: 0,
  })
  // @ts-expect-error analyticsHost is required
  new Pathlight({ siteId: 1, apiKey: 'k' })
  // @ts-expect-error siteId is required
  new Pathlight({ analyticsHost: 'https://a.example/api', apiKey: 'k' })
  // @ts-expect-error apiKey is required
  new Pathlight({ analyticsHost: 'https://a.example/api', siteId: 1 })
  // @ts-expect-error siteId is a number or a string
  new Pathlight({ analyticsHost: 'https://a.example/api', siteId: true, apiKey: 'k' })
  // @ts-expect-error debug is a boolean
  new Pathlight({ analyticsHost: 'https://a.example/api', siteId: 1, apiKey: 'k', debug: 'yes' })
  // @ts-expect-error unknown options are typos
  new Pathlight({ analyticsHost: 'https://a.example/api', siteId: 1, apiKey: 'k', retries: 3 })
}

export async function calls() {
  expectTypeOf(client.pageview()).toEqualTypeOf<Promise<TrackResponse>>()
  expectTypeOf(client.event('signup')).toEqualTypeOf<Promise<TrackResponse>>()
  const answer = await client.pageview({ pathname: '/', referrer: maybe, screenWidth: 1920 })
  expectTypeOf(answer.success).toEqualTypeOf<true>()
  expectTypeOf(answer.tracked).toEqualTypeOf<false | undefined>()

  // Forwarded header values may be undefined.
  await client.pageview({ user_agent: maybe, ip_address: maybe })
  // @ts-expect-error screenWidth is a number
  await client.pageview({ screenWidth: '1920' })
  // @ts-expect-error not a tracking field
  await client.pageview({ pageTitle: 'x' })
  // @ts-expect-error the client sets site_id itself
  await client.pageview({ site_id: '2' })
  // @ts-expect-error pageview takes no properties
  await client.pageview({}, { plan: 'pro' })
  // @ts-expect-error eventName is required
  await client.event()
  // @ts-expect-error eventName is a string
  await client.event(42)
}

export async function properties() {
  await client.event('signup', {}, { plan: 'pro', seats: 3, annual: true, tags: ['a', 1, false] })
  await client.event('signup', undefined, { optional: maybe })
  const readonlyTags = ['a', 'b'] as const
  await client.event('signup', {}, { tags: readonlyTags })

  // Interfaces work, not only type aliases (no index signature needed).
  interface Signup {
    plan: string
    seats?: number
  }
  const signup: Signup = { plan: 'pro' }
  await client.event('signup', {}, signup)
  const loose: EventProperties = { plan: 'pro' }
  await client.event('signup', {}, loose)
  const record: Record<string, PropertyValue> = { plan: 'pro' }
  await client.event('signup', {}, record)

  // @ts-expect-error an object value is not a property
  await client.event('signup', {}, { plan: { name: 'pro' } })
  // @ts-expect-error null is not a property value
  await client.event('signup', {}, { plan: null })
  // @ts-expect-error a Date is not a property value
  await client.event('signup', {}, { at: new Date() })
  // @ts-expect-error arrays are flat
  await client.event('signup', {}, { tags: [['a']] })
  // @ts-expect-error arrays hold scalars only
  await client.event('signup', {}, { tags: [{ a: 1 }] })
  interface Nested {
    plan: { name: string }
  }
  const nested: Nested = { plan: { name: 'pro' } }
  // @ts-expect-error an interface with an object-valued property
  await client.event('signup', {}, nested)
  const unknownValues: Record<string, unknown> = {}
  // @ts-expect-error unknown values are not known to be properties
  await client.event('signup', {}, unknownValues)
  // @ts-expect-error properties is an object, not a JSON string
  await client.event('signup', {}, '{"plan":"pro"}')
  // @ts-expect-error properties is an object, not an array
  await client.event('signup', {}, ['pro'])
  // @ts-expect-error a Map is not a plain object
  await client.event('signup', {}, new Map([['plan', 'pro']]))
}

export function errors(error: unknown) {
  if (error instanceof PathlightRateLimitError) {
    expectTypeOf(error.retryAfterSeconds).toEqualTypeOf<number | undefined>()
    expectTypeOf(error.kind).toEqualTypeOf<'rate_limit'>()
    expectTypeOf(error.status).toEqualTypeOf<429>()
  }
  if (error instanceof PathlightInvalidPayloadError) {
    expectTypeOf(error.details).toEqualTypeOf<PayloadErrorDetails>()
    expectTypeOf(error.details.fieldErrors).toEqualTypeOf<Record<string, string[]>>()
  }
  if (error instanceof PathlightAuthError) expectTypeOf(error.status).toEqualTypeOf<401 | 403>()
  if (error instanceof PathlightNetworkError) {
    expectTypeOf(error.status).toEqualTypeOf<undefined>()
    expectTypeOf(error.timedOut).toEqualTypeOf<boolean>()
  }
  if (error instanceof PathlightError) {
    expectTypeOf(error.kind).toEqualTypeOf<PathlightErrorKind>()
    expectTypeOf(error.status).toEqualTypeOf<number | undefined>()
    expectTypeOf(error.body).toEqualTypeOf<unknown>()
    expectTypeOf(error.attempts).toEqualTypeOf<number>()
    // @ts-expect-error errors are read-only
    error.status = 200
  }
}

export function webhooks(body: string, bytes: Uint8Array, buffer: Buffer) {
  expectTypeOf(verifyWebhookSignature(body, 'sig', 'secret')).toEqualTypeOf<boolean>()
  verifyWebhookSignature(bytes, 'sig', bytes)
  verifyWebhookSignature(buffer, 'sig', 'secret')
  // @ts-expect-error a parsed body is not the signed bytes
  verifyWebhookSignature({ event: 'x' }, 'sig', 'secret')
}

export type PayloadFieldsAreOptional = Required<TrackPayload> extends TrackPayload ? true : never
