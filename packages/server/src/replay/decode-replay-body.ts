/**
 * A `POST /api/replay` body to a checked batch. The body is gzip when it starts with the gzip magic
 * bytes (1f 8b), else UTF-8 JSON text; gzip is inflated off the event loop with an output limit, so a
 * small body cannot expand into a large allocation (a "zip bomb" answers 413).
 */
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { type ReplayBatch, replayBatchSchema } from '@pathlight/protocol'
import { z } from 'zod'

const gunzip = promisify(zlib.gunzip)

/** The most a batch may inflate to (its JSON text), in bytes. */
export const MAX_REPLAY_BATCH_JSON_BYTES = 16 * 1024 * 1024

/** True when `body` starts with the gzip magic bytes. */
export const isGzip = (body: Uint8Array): boolean => body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b

export type DecodedReplayBody =
  | { ok: true; batch: ReplayBatch; encoding: 'gzip' | 'json' }
  | { ok: false; status: 400 | 413; error: string; details?: unknown }

/** Decode and validate a body; never throws for bad input. */
export async function decodeReplayBody(body: Buffer): Promise<DecodedReplayBody> {
  const encoding = isGzip(body) ? 'gzip' : 'json'
  let text: string
  if (encoding === 'gzip') {
    try {
      text = (await gunzip(body, { maxOutputLength: MAX_REPLAY_BATCH_JSON_BYTES })).toString('utf8')
    } catch (error) {
      return error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
        ? { ok: false, status: 413, error: 'Batch over 16 MB once decompressed' }
        : { ok: false, status: 400, error: 'Invalid payload: the body is not valid gzip' }
    }
  } else {
    text = body.toString('utf8')
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { ok: false, status: 400, error: 'Invalid payload: the body is not JSON' }
  }
  const parsed = replayBatchSchema.safeParse(value)
  if (!parsed.success) {
    return { ok: false, status: 400, error: 'Invalid payload', details: z.flattenError(parsed.error) }
  }
  return { ok: true, batch: parsed.data, encoding }
}
