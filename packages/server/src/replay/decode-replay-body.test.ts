import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { decodeReplayBody, isGzip } from './decode-replay-body.js'

const batch = { site_id: 1, sequence: 0, events: [{ type: 4, timestamp: 1000, data: { href: '/' } }] }

describe('decodeReplayBody', () => {
  it('reads JSON text', async () => {
    const text = JSON.stringify(batch)
    const decoded = await decodeReplayBody(Buffer.from(text))
    expect(decoded).toEqual({ ok: true, batch, encoding: 'json', jsonBytes: text.length })
  })

  it('reads gzip, told by its magic bytes', async () => {
    const text = JSON.stringify(batch)
    const body = zlib.gzipSync(text)
    expect(isGzip(body)).toBe(true)
    expect(await decodeReplayBody(body)).toEqual({
      ok: true,
      batch,
      encoding: 'gzip',
      jsonBytes: text.length,
    })
  })

  it('refuses a body that inflates past the limit with 413 naming the limit', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20))
    expect(bomb.length).toBeLessThan(1024 * 1024)
    expect(await decodeReplayBody(bomb)).toEqual({
      ok: false,
      status: 413,
      error: 'Batch over 8 MiB once decompressed (REPLAY_MAX_BATCH_BYTES)',
    })
    const small = Buffer.from(JSON.stringify(batch))
    expect(await decodeReplayBody(small, small.length - 1)).toMatchObject({ ok: false, status: 413 })
    expect(await decodeReplayBody(zlib.gzipSync(small), small.length)).toMatchObject({ ok: true })
  })

  it('refuses broken gzip, non-JSON and invalid batches with 400 naming the field', async () => {
    expect(await decodeReplayBody(Buffer.from([0x1f, 0x8b, 1, 2, 3]))).toMatchObject({ status: 400 })
    expect(await decodeReplayBody(Buffer.from('not json'))).toMatchObject({ status: 400 })
    const invalid = await decodeReplayBody(Buffer.from(JSON.stringify({ ...batch, events: [{ type: 2 }] })))
    expect(invalid).toMatchObject({
      ok: false,
      status: 400,
      details: { fieldErrors: { events: [expect.any(String)] } },
    })
  })
})
