/**
 * A `POST /api/replay` body to a checked batch. The body is gzip when it starts with the gzip magic
 * bytes (1f 8b), else UTF-8 JSON text; gzip is inflated off the event loop with an output limit, so a
 * small body cannot expand into a large allocation (a "zip bomb" answers 413 naming the limit). The
 * batch's JSON must then nest at most `MAX_JSON_DEPTH` levels and match `replayBatchSchema`.
 */
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { type ReplayBatch, replayBatchSchema } from '@pathlight/protocol'
import { z } from 'zod'
import { tooDeep } from '../shared/too-deep.js'
import { DEFAULT_REPLAY_LIMITS, mebibytes } from './replay-limits.js'

const gunzip = promisify(zlib.gunzip)

/** True when `body` starts with the gzip magic bytes. */
export const isGzip = (body: Uint8Array): boolean => body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b

export type DecodedReplayBody =
  | {
      ok: true
      batch: ReplayBatch
      encoding: 'gzip' | 'json'
      /** Bytes of the batch's JSON text (inflated, for gzip). */
      jsonBytes: number
    }
  | { ok: false; status: 400 | 413; error: string; details?: unknown }

/**
 * Decode and validate a body; never throws for bad input.
 * @param maxJsonBytes the most the batch's JSON may take, in bytes (`REPLAY_MAX_BATCH_BYTES`)
 */
export async function decodeReplayBody(
  body: Buffer,
  maxJsonBytes: number = DEFAULT_REPLAY_LIMITS.maxBatchBytes,
): Promise<DecodedReplayBody> {
  const encoding = isGzip(body) ? 'gzip' : 'json'
  const tooLarge = {
    ok: false,
    status: 413,
    error: `Batch over ${mebibytes(maxJsonBytes)} once decompressed (REPLAY_MAX_BATCH_BYTES)`,
  } as const
  let json: Buffer
  if (encoding === 'gzip') {
    try {
      json = await gunzip(body, { maxOutputLength: maxJsonBytes })
    } catch (error) {
      return error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
        ? tooLarge
        : { ok: false, status: 400, error: 'Invalid payload: the body is not valid gzip' }
    }
  } else {
    if (body.length > maxJsonBytes) return tooLarge
    json = body
  }
  let value: unknown
  try {
    value = JSON.parse(json.toString('utf8'))
  } catch {
    return { ok: false, status: 400, error: 'Invalid payload: the body is not JSON' }
  }
  const deep = tooDeep(value)
  if (deep) return { ok: false, status: 400, error: 'Invalid payload', details: deep.details }
  const parsed = replayBatchSchema.safeParse(value)
  if (!parsed.success) {
    return { ok: false, status: 400, error: 'Invalid payload', details: z.flattenError(parsed.error) }
  }
  return { ok: true, batch: parsed.data, encoding, jsonBytes: json.length }
}
