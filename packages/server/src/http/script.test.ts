/**
 * The script routes on a bare Fastify app (inject): content negotiation, precompressed bodies, ETags and
 * 304s, cache and CORS headers, the vitals and replay chunks' immutable URLs, the tracker config and its cache, and
 * build failures. One test runs the real esbuild build.
 */
import zlib from 'node:zlib'
import { buildTracker, type TrackerBuild } from '@pathlight/tracker/build'
import Fastify from 'fastify'
import { describe, expect, it, vi } from 'vitest'
import { createChangeFeed } from '../shared/change-feed.js'
import type { SiteRow } from '../sites/site.js'
import {
  CONFIG_CACHE_CONTROL,
  IMMUTABLE_CACHE_CONTROL,
  matchesEtag,
  pickEncoding,
  SCRIPT_CACHE_CONTROL,
  type ScriptRouteOptions,
  scriptRoutes,
} from './script.js'

const fakeBuild: TrackerBuild = {
  core: `(()=>{/* core */${'x'.repeat(500)}})();\n`,
  vitals: '(()=>{/* vitals */})();\n',
  vitalsHash: 'abc123abc123',
  engagement: '(()=>{/* engagement */})();\n',
  engagementHash: '0a1b2c3d4e5f',
  heatmap: '(()=>{/* heatmap */})();\n',
  heatmapHash: '1a2b3c4d5e6f',
  replay: '(()=>{/* replay */})();\n',
  replayHash: 'def456def456',
}

const siteRow = (siteId: number, switches: Partial<Record<string, number>> = {}): SiteRow =>
  ({
    id: `uuid-${siteId}`,
    site_id: siteId,
    name: 'Shop',
    domain: 'shop.test',
    organization_id: 'org',
    web_vitals: 0,
    track_errors: 0,
    track_outbound: 1,
    track_url_params: 1,
    public: 0,
    salt_user_ids: 0,
    block_bots: 1,
    session_replay: 0,
    replay_sample_rate: 1,
    heatmaps: 0,
    ...switches,
  }) as unknown as SiteRow

async function appWith(options: Partial<ScriptRouteOptions> = {}) {
  const app = Fastify()
  await app.register(scriptRoutes, {
    loadSite: async (siteId) => (siteId === 42 ? siteRow(42) : undefined),
    build: async () => fakeBuild,
    ...options,
  })
  return app
}

describe('GET /api/script.js', () => {
  it('serves brotli, gzip or identity after Accept-Encoding, with cache, CORS and validator headers', async () => {
    const app = await appWith()
    const br = await app.inject({
      url: '/api/script.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    })
    expect(br.statusCode).toBe(200)
    expect(br.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'content-encoding': 'br',
      'cache-control': SCRIPT_CACHE_CONTROL,
      vary: 'Accept-Encoding',
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
      'x-content-type-options': 'nosniff',
    })
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(fakeBuild.core)

    const gzip = await app.inject({ url: '/api/script.js', headers: { 'accept-encoding': 'gzip' } })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(fakeBuild.core)

    const plain = await app.inject({ url: '/api/script.js', headers: { 'accept-encoding': 'identity' } })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe(fakeBuild.core)

    const etags = new Set([br.headers.etag, gzip.headers.etag, plain.headers.etag])
    expect(etags.size).toBe(3)
    await app.close()
  })

  it('answers 304 to a matching If-None-Match, also weak or in a list', async () => {
    const app = await appWith()
    const first = await app.inject({ url: '/api/script.js', headers: { 'accept-encoding': 'br' } })
    const etag = String(first.headers.etag)
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await app.inject({
        url: '/api/script.js',
        headers: { 'accept-encoding': 'br', 'if-none-match': ifNoneMatch },
      })
      expect(again.statusCode, ifNoneMatch).toBe(304)
      expect(again.body).toBe('')
      expect(again.headers.etag).toBe(etag)
    }
    const otherEncoding = await app.inject({
      url: '/api/script.js',
      headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
    })
    expect(otherEncoding.statusCode).toBe(200)
    await app.close()
  })

  it('builds once for all requests, and again after a failed build', async () => {
    const build = vi
      .fn<() => Promise<TrackerBuild>>()
      .mockRejectedValueOnce(new Error('esbuild failed'))
      .mockResolvedValue(fakeBuild)
    const app = await appWith({ build })
    expect((await app.inject({ url: '/api/script.js' })).statusCode).toBe(500)
    const responses = await Promise.all(
      [1, 2, 3].map(() => app.inject({ url: '/api/script.js', headers: { 'accept-encoding': '' } })),
    )
    expect(responses.map((r) => r.body)).toEqual([fakeBuild.core, fakeBuild.core, fakeBuild.core])
    expect(build).toHaveBeenCalledTimes(2)
    await app.close()
  })

  it('builds when the server starts listening, before any request', async () => {
    const build = vi.fn(async () => fakeBuild)
    const app = await appWith({ build })
    expect(build).not.toHaveBeenCalled()
    await app.listen({ port: 0, host: '127.0.0.1' })
    expect(build).toHaveBeenCalledTimes(1)
    await app.inject({ url: '/api/script.js' })
    expect(build).toHaveBeenCalledTimes(1)
    await app.close()
  })

  it('serves the real build: an IIFE that loads its vitals chunk by content hash', async () => {
    const built = await buildTracker()
    const app = await appWith({ build: async () => built })
    const response = await app.inject({ url: '/api/script.js' })
    expect(response.body).toBe(built.core)
    expect(built.core).toMatch(/^"use strict";\(\(\)=>\{/)
    expect(built.core).toContain(`script-vitals.js?v=${built.vitalsHash}`)
    expect(built.core).not.toContain('onLCP')
    expect(built.vitals).toContain('Apache-2.0')
    const vitals = await app.inject({ url: `/api/script-vitals.js?v=${built.vitalsHash}` })
    expect(vitals.body).toBe(built.vitals)
    expect(built.core).toContain(`script-engagement.js?v=${built.engagementHash}`)
    const engagement = await app.inject({ url: `/api/script-engagement.js?v=${built.engagementHash}` })
    expect(engagement.body).toBe(built.engagement)
    expect(built.engagement).toContain('scroll_depth')
    expect(built.core).toContain(`script-replay.js?v=${built.replayHash}`)
    expect(built.replay).toContain('MIT')
    const replay = await app.inject({ url: `/api/script-replay.js?v=${built.replayHash}` })
    expect(replay.body).toBe(built.replay)
    expect(built.core).toContain(`script-heatmap.js?v=${built.heatmapHash}`)
    expect(built.core).not.toContain('nth-of-type')
    expect(built.heatmap).toContain('nth-of-type')
    const heatmap = await app.inject({ url: `/api/script-heatmap.js?v=${built.heatmapHash}` })
    expect(heatmap.body).toBe(built.heatmap)
    await app.close()
  })
})

describe('GET /api/script-heatmap.js', () => {
  it('is immutable at its content-hashed URL and short-lived at any other', async () => {
    const app = await appWith()
    const hashed = await app.inject({ url: `/api/script-heatmap.js?v=${fakeBuild.heatmapHash}` })
    expect(hashed.statusCode).toBe(200)
    expect(hashed.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL)
    expect(hashed.body).toBe(fakeBuild.heatmap)
    const stale = await app.inject({ url: '/api/script-heatmap.js?v=000000000000' })
    expect(stale.headers['cache-control']).toBe(SCRIPT_CACHE_CONTROL)
    await app.close()
  })
})

describe('GET /api/script-engagement.js', () => {
  it('is immutable at its content-hashed URL and short-lived at any other', async () => {
    const app = await appWith()
    const hashed = await app.inject({ url: `/api/script-engagement.js?v=${fakeBuild.engagementHash}` })
    expect(hashed.statusCode).toBe(200)
    expect(hashed.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL)
    expect(hashed.body).toBe(fakeBuild.engagement)
    const stale = await app.inject({ url: '/api/script-engagement.js?v=000000000000' })
    expect(stale.headers['cache-control']).toBe(SCRIPT_CACHE_CONTROL)
    await app.close()
  })
})

describe('GET /api/script-vitals.js', () => {
  it('is immutable at its content-hashed URL and short-lived at any other', async () => {
    const app = await appWith()
    const hashed = await app.inject({ url: `/api/script-vitals.js?v=${fakeBuild.vitalsHash}` })
    expect(hashed.statusCode).toBe(200)
    expect(hashed.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL)
    expect(hashed.body).toBe(fakeBuild.vitals)
    const stale = await app.inject({ url: '/api/script-vitals.js?v=000000000000' })
    expect(stale.headers['cache-control']).toBe(SCRIPT_CACHE_CONTROL)
    expect(stale.body).toBe(fakeBuild.vitals)
    await app.close()
  })
})

describe('GET /api/script-replay.js', () => {
  it('is immutable at its content-hashed URL and short-lived at any other, gzip when accepted', async () => {
    const app = await appWith()
    const hashed = await app.inject({
      url: `/api/script-replay.js?v=${fakeBuild.replayHash}`,
      headers: { 'accept-encoding': 'gzip' },
    })
    expect(hashed.statusCode).toBe(200)
    expect(hashed.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL)
    expect(hashed.headers['content-encoding']).toBe('gzip')
    expect(zlib.gunzipSync(hashed.rawPayload).toString()).toBe(fakeBuild.replay)
    const stale = await app.inject({ url: '/api/script-replay.js?v=000000000000' })
    expect(stale.headers['cache-control']).toBe(SCRIPT_CACHE_CONTROL)
    expect(stale.body).toBe(fakeBuild.replay)
    await app.close()
  })
})

describe('GET /api/sites/:siteId/tracker-config', () => {
  it('answers the public switches only, cacheable and readable from any origin', async () => {
    const app = await appWith()
    const response = await app.inject({ url: '/api/sites/42/tracker-config' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      trackOutbound: true,
      trackErrors: false,
      webVitals: false,
      trackUrlParams: true,
      sessionReplay: false,
      replaySampleRate: 1,
      heatmaps: false,
    })
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'cache-control': CONFIG_CACHE_CONTROL,
      'content-type': 'application/json; charset=utf-8',
    })
    const again = await app.inject({
      url: '/api/sites/42/tracker-config',
      headers: { 'if-none-match': String(response.headers.etag) },
    })
    expect(again.statusCode).toBe(304)
    await app.close()
  })

  it('answers 404 with CORS for unknown and malformed site ids', async () => {
    const app = await appWith()
    for (const id of ['7', 'abc', '0', '99999999999']) {
      const response = await app.inject({ url: `/api/sites/${id}/tracker-config` })
      expect(response.statusCode, id).toBe(404)
      expect(response.headers['access-control-allow-origin']).toBe('*')
    }
    await app.close()
  })

  it('reuses a site for configTtlMs, then reads it again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      let row = siteRow(42)
      const loadSite = vi.fn(async () => row)
      const app = await appWith({ loadSite, configTtlMs: 1000 })
      const get = async () => (await app.inject({ url: '/api/sites/42/tracker-config' })).json()
      expect((await get()).webVitals).toBe(false)
      row = siteRow(42, { web_vitals: 1 })
      expect((await get()).webVitals).toBe(false)
      vi.advanceTimersByTime(1001)
      expect((await get()).webVitals).toBe(true)
      expect(loadSite).toHaveBeenCalledTimes(2)
      await app.close()
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('tracker config and the change feed', () => {
  it('drops a site announced as changed at once, and only that site', async () => {
    const changes = createChangeFeed()
    let row = siteRow(42)
    const loadSite = vi.fn(async () => row)
    const app = await appWith({ loadSite, changes, configTtlMs: 60_000 })
    const get = async () => (await app.inject({ url: '/api/sites/42/tracker-config' })).json()
    expect((await get()).trackErrors).toBe(false)
    row = siteRow(42, { track_errors: 1 })
    changes.announce({ kind: 'goals', siteId: 42 })
    changes.announce({ kind: 'site', siteId: 7 })
    expect((await get()).trackErrors).toBe(false)
    changes.announce({ kind: 'site', siteId: 42 })
    expect((await get()).trackErrors).toBe(true)
    expect(loadSite).toHaveBeenCalledTimes(2)
    await app.close()
  })
})

describe('pickEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['*', 'br'],
    ['*;q=0', undefined],
    ['identity', undefined],
    ['GZIP', 'gzip'],
  ])('%j -> %j', (header, expected) => {
    expect(pickEncoding(header)).toBe(expected)
  })
})

describe('matchesEtag', () => {
  it('compares weakly and handles lists and *', () => {
    expect(matchesEtag(undefined, '"a"')).toBe(false)
    expect(matchesEtag('"a"', '"a"')).toBe(true)
    expect(matchesEtag('W/"a"', '"a"')).toBe(true)
    expect(matchesEtag('"b", "a"', '"a"')).toBe(true)
    expect(matchesEtag('"b"', '"a"')).toBe(false)
    expect(matchesEtag('*', '"a"')).toBe(true)
  })
})
