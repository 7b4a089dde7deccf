/**
 * The body of `POST /api/replay`: one batch of a session recording (rrweb events) as a zod schema. The
 * server parses it (after gunzipping a compressed body); the recorder checks its own types against it.
 * Events are opaque objects to the server except for `timestamp` (epoch milliseconds), which orders and
 * dates the batch. `sequence` numbers a session's batches from 0 in the order the recorder sent them.
 */
import { z } from 'zod'

/** Most events one batch may carry (a recorder flushes every few seconds; 10,000 is far above that). */
export const MAX_REPLAY_BATCH_EVENTS = 10_000

/** One rrweb event: any object with a numeric `timestamp` (epoch ms); its other fields are kept as sent. */
export const replayEventSchema = z.looseObject({
  timestamp: z
    .number({ error: 'must be a number (epoch milliseconds)' })
    .min(0, 'must be epoch milliseconds')
    .max(4_102_444_800_000, 'must be before 2100'),
})

export const replayBatchSchema = z.object({
  site_id: z.union([z.string().max(20, 'must be at most 20 characters'), z.number()], {
    error: 'site_id is required (a site id as string or number)',
  }),
  /** The batch's place in its session's recording, from 0. */
  sequence: z
    .int({ error: 'must be a whole number from 0' })
    .min(0, 'must be a whole number from 0')
    .max(4_294_967_295, 'is too large'),
  /** The visitor id sent when tracking (`user_id` of the tracking body), if the site sets one. */
  user_id: z.string().max(256, 'must be at most 256 characters').optional(),
  events: z
    .array(replayEventSchema, { error: 'must be an array of rrweb events' })
    .min(1, 'must hold at least one event')
    .max(MAX_REPLAY_BATCH_EVENTS, `at most ${MAX_REPLAY_BATCH_EVENTS} events`),
})

export type ReplayBatch = z.infer<typeof replayBatchSchema>
export type ReplayEvent = z.infer<typeof replayEventSchema>
