/**
 * The wire of Rybbit's web SDK (`@rybbit/js`) where it differs from Pathlight's own tracker: the
 * switches it reads (`GET /api/site/tracking-config/{siteId}`), the identify body (`POST /api/identify`)
 * and its session replay batches (`POST /api/session-replay/record/{siteId}`).
 */
import { z } from 'zod'
import { component, doc } from './openapi-registry.js'
import { MAX_REPLAY_BATCH_EVENTS, replayEventSchema } from './replay-batch.js'

/** Most traits one identify body may carry, and the most a user's profile keeps. */
export const MAX_TRAITS_PER_IDENTIFY = 50
export const MAX_TRAITS_PER_USER = 100
/** The longest trait key, and the longest trait value as JSON text, in characters. */
export const MAX_TRAIT_KEY_LENGTH = 64
export const MAX_TRAIT_VALUE_LENGTH = 1024

const siteIdField = z.union([z.string().max(20, 'must be at most 20 characters'), z.number()], {
  error: 'site_id is required (a site id as string or number)',
})

/** A user's traits: at most 50 keys of at most 64 characters, each value JSON of at most 1,024 characters. */
export const traitsSchema = z
  .record(z.string(), z.unknown(), { error: 'must be a JSON object' })
  .superRefine((traits, ctx) => {
    const keys = Object.keys(traits)
    if (keys.length > MAX_TRAITS_PER_IDENTIFY) {
      ctx.addIssue({ code: 'custom', message: `at most ${MAX_TRAITS_PER_IDENTIFY} traits` })
    }
    for (const key of keys) {
      if (key === '' || key.length > MAX_TRAIT_KEY_LENGTH) {
        ctx.addIssue({ code: 'custom', message: `keys must be 1-${MAX_TRAIT_KEY_LENGTH} characters` })
        return
      }
      const text = JSON.stringify(traits[key] ?? null)
      if (text.length > MAX_TRAIT_VALUE_LENGTH) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `must be at most ${MAX_TRAIT_VALUE_LENGTH} characters as JSON`,
        })
      }
    }
  })

/** `POST /api/identify`: links the visitor who sends it to `user_id`, with traits. */
export const identifyBody = z.object({
  site_id: siteIdField,
  user_id: z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, 'must not be empty')
    .max(256, 'must be at most 256 characters'),
  traits: doc(traitsSchema, "The user's traits: each key's value replaces the stored one").optional(),
  is_new_identify: doc(
    z.boolean({ error: 'must be true or false' }),
    'True from `identify()`, false from `setTraits()`; both link the visitor and store the traits',
  ).optional(),
})
export type IdentifyBody = z.output<typeof identifyBody>

/** A batch of Rybbit's recorder: rrweb events, and the page it was recorded on. */
export const rybbitReplayBatch = z.object({
  userId: z.string().max(256, 'must be at most 256 characters').optional(),
  events: z
    .array(replayEventSchema, { error: 'must be an array of rrweb events' })
    .min(1, 'must hold at least one event')
    .max(MAX_REPLAY_BATCH_EVENTS, `at most ${MAX_REPLAY_BATCH_EVENTS} events`),
  metadata: z.looseObject({}).optional(),
})
export type RybbitReplayBatch = z.output<typeof rybbitReplayBatch>

export const rybbitTrackingConfig = component(
  'RybbitTrackingConfig',
  z.object({
    trackInitialPageView: z.boolean(),
    trackSpaNavigation: z.boolean(),
    trackUrlParams: z.boolean(),
    trackOutbound: z.boolean(),
    webVitals: z.boolean(),
    trackErrors: z.boolean(),
    sessionReplay: z.boolean(),
    trackButtonClicks: z.boolean(),
    trackCopy: z.boolean(),
    trackFormInteractions: z.boolean(),
  }),
  "A site's switches under the names Rybbit's web SDK reads (public to anyone with the site id).",
)
export type RybbitTrackingConfig = z.output<typeof rybbitTrackingConfig>

export const identifyResponse = component(
  'IdentifyResponse',
  z.object({ success: z.literal(true) }),
  'The visitor is linked to the user and the traits stored.',
)
