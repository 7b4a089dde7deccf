/**
 * Gzip bombs through `POST /api/replay` and reading such a session back, over real HTTP on loopback
 * (SQLite + chDB, the shipped replay limits): a batch inflating past `REPLAY_MAX_BATCH_BYTES` answers
 * 413 naming the limit; batches of a few KB that inflate to just under it are cut at
 * `REPLAY_MAX_SESSION_BYTES` of JSON (counted here from the bodies sent); the session at the cap reads
 * back streamed (chunked, never one string), within the read budget, with the server's memory growth
 * printed and loosely bounded; a read past its time budget ends there; rows stored before the limits
 * (16 MiB batches) read back cut, not whole.
 */
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_REPLAY_LIMITS } from '../replay/replay-limits.js'
import { streamSessionReplay } from '../replay/session-replay.js'
import type { Site, SiteRow } from '../sites/site.js'
import { DESKTOP_CHROME_UA, openTestInstance, type TestInstance } from '../testing/test-instance.js'

const MiB = 1024 * 1024
const { maxBatchBytes, maxSessionBytes } = DEFAULT_REPLAY_LIMITS

/** A replay batch's JSON text padded with spaces inside a string to `jsonBytes` bytes. */
function paddedBatch(siteId: number, sequence: number, jsonBytes: number): string {
  const head = `{"site_id":${siteId},"sequence":${sequence},"events":[{"type":3,"timestamp":${1000 + sequence},"data":{"source":1,"pad":"`
  const tail = '"}}]}'
  return `${head}${' '.repeat(jsonBytes - head.length - tail.length)}${tail}`
}

describe('replay gzip bombs', () => {
  let t: TestInstance
  let base: string
  let owner: { cookie: string; organizationId: string }
  let site: Site

  beforeAll(async () => {
    t = await openTestInstance()
    owner = await t.seed()
    site = await t.createSite(owner.cookie, owner.organizationId, 'example.com')
    const config = await t.app.inject({
      method: 'PUT',
      url: `/api/sites/${site.siteId}/config`,
      headers: { cookie: owner.cookie },
      payload: { sessionReplay: true },
    })
    expect(config.statusCode, config.body).toBe(200)
    base = await t.app.listen({ port: 0, host: '127.0.0.1' })
  }, 60_000)
  afterAll(() => t.close())

  const post = async (body: Buffer) => {
    const response = await fetch(`${base}/api/replay`, {
      method: 'POST',
      headers: {
        'content-type': 'text/plain',
        'user-agent': DESKTOP_CHROME_UA,
        origin: 'https://example.com',
      },
      body: new Uint8Array(body),
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
  const storedRows = (sessionId?: string) =>
    t.services.events.query<{ session_id: string; bytes: number; json_bytes: number }>(
      `SELECT session_id, bytes, json_bytes FROM replay WHERE site_id = {site:UInt32}
       ${sessionId ? 'AND session_id = {session:String}' : ''} ORDER BY sequence`,
      { site: site.siteId, session: sessionId ?? '' },
    )

  /** Read a recording over HTTP, counting its bytes as they arrive (none kept but the last 300). */
  async function readStreamed(sessionId: string) {
    const response = await fetch(`${base}/api/sites/${site.siteId}/sessions/${sessionId}/replay`, {
      headers: { cookie: owner.cookie },
    })
    const rssBefore = process.memoryUsage().rss
    let rssPeak = rssBefore
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss)
    }, 5)
    let bytes = 0
    let chunks = 0
    let tail = ''
    const decoder = new TextDecoder()
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.length
        chunks++
        tail = (tail + decoder.decode(chunk, { stream: true })).slice(-300)
      }
    } finally {
      clearInterval(sampler)
    }
    return {
      status: response.status,
      headers: response.headers,
      bytes,
      chunks,
      tail,
      rssGrowthMiB: (rssPeak - rssBefore) / MiB,
    }
  }

  it('refuses a batch that inflates past the batch limit with 413 naming it, and stores nothing', async () => {
    const bomb = zlib.gzipSync(paddedBatch(site.siteId, 0, 16 * MiB))
    expect(bomb.length).toBeLessThan(32 * 1024)
    const answer = await post(bomb)
    expect(answer).toEqual({
      status: 413,
      body: { success: false, error: 'Batch over 8 MiB once decompressed (REPLAY_MAX_BATCH_BYTES)' },
    })
    expect(await storedRows()).toEqual([])
  })

  it('cuts a session of bombs at the session cap of JSON, and reads it back streamed within the budget', async () => {
    const jsonBytes = maxBatchBytes - 1024
    let sentCompressed = 0
    let acceptedJson = 0
    let accepted = 0
    let last: Record<string, unknown> = { recorded: true }
    for (let sequence = 0; last.recorded === true && sequence < 40; sequence++) {
      const body = zlib.gzipSync(paddedBatch(site.siteId, sequence, jsonBytes))
      const answer = await post(body)
      expect(answer.status).toBe(200)
      last = answer.body
      sentCompressed += body.length
      if (last.recorded === true) {
        accepted++
        acceptedJson += jsonBytes
      }
    }
    expect(last).toEqual({ success: true, recorded: false, reason: 'session over its replay cap' })
    // The batches taken: the first that reaches the cap is still stored, none after it.
    expect(accepted).toBe(Math.ceil(maxSessionBytes / jsonBytes))
    expect(sentCompressed).toBeLessThan(1 * MiB)
    const rows = await storedRows()
    expect(rows.reduce((sum, row) => sum + Number(row.json_bytes), 0)).toBe(acceptedJson)
    expect(acceptedJson).toBeLessThan(maxSessionBytes + maxBatchBytes)

    const read = await readStreamed(rows[0]?.session_id ?? '')
    console.info(
      `replay bomb read: ${(read.bytes / MiB).toFixed(1)} MiB in ${read.chunks} chunks, ` +
        `peak RSS growth ${read.rssGrowthMiB.toFixed(0)} MiB (this process: server and client)`,
    )
    expect(read.status).toBe(200)
    expect(read.headers.get('content-type')).toMatch(/^application\/json/)
    expect(read.headers.get('content-length')).toBeNull()
    expect(read.headers.get('transfer-encoding')).toBe('chunked')
    expect(read.chunks).toBeGreaterThan(10)
    // Every event's padding came back, plus the envelope; nothing beyond the budget.
    expect(read.bytes).toBeGreaterThan(acceptedJson - accepted * 200)
    expect(read.bytes).toBeLessThan(maxSessionBytes + maxBatchBytes + 64 * 1024)
    expect(read.tail).toMatch(/\],"meta":\{"durationMs":\d+,"bytes":\d+,"truncated":true\}\}\}$/)
    // Loose: the answer (72 MiB of JSON) is never held whole, nor the session's events.
    expect(read.rssGrowthMiB).toBeLessThan(300)
  }, 120_000)

  it('ends a read that runs past its time budget where it is, truncated', async () => {
    const [row] = await storedRows()
    const siteRow = { site_id: site.siteId } as SiteRow
    // A clock that moves 10 s per reading: past a 15 s budget at the second batch.
    let clock = 0
    const stream = await streamSessionReplay(t.services.events, siteRow, row?.session_id ?? '', {
      now: () => {
        clock += 10_000
        return clock
      },
      maxMs: 15_000,
    })
    let batches = 0
    let tail = ''
    for await (const chunk of stream as AsyncIterable<string | Buffer>) {
      if (chunk.length > MiB) batches++
      else tail = String(chunk)
    }
    expect(batches).toBe(1)
    expect(tail).toMatch(/^\],"meta":\{"durationMs":0,"bytes":\d+,"truncated":true\}\}\}$/)
  })

  it('reads rows stored before the limits cut at the batch limit, not whole', async () => {
    const sessionId = 'legacy-bomb-session'
    const now = Date.now()
    const rows = [0, 1, 2].map((sequence) => {
      const payload = zlib.gzipSync(paddedBatch(site.siteId, sequence, 16 * MiB))
      return {
        site_id: site.siteId,
        session_id: sessionId,
        sequence,
        timestamp: new Date(now).toISOString(),
        received_at: new Date(now).toISOString(),
        expires_at: new Date(now + 86_400_000).toISOString(),
        bytes: payload.length,
        encoding: 'gzip' as const,
        payload,
      }
    })
    await t.services.events.insertReplay(rows)
    const read = await readStreamed(sessionId)
    expect(read.status).toBe(200)
    expect(read.bytes).toBeLessThan(1024)
    expect(read.tail).toMatch(
      /^\{"data":\{"events":\[\],"meta":\{"durationMs":0,"bytes":\d+,"truncated":true\}\}\}$/,
    )
  }, 60_000)
})
