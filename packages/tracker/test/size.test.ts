/**
 * The size budget of the core script: at most 2,000 bytes gzipped (what `/api/script.js` serves), with
 * web-vitals and rrweb kept out of it (their chunks are separate and loaded only on sites that use them),
 * and the session replay chunk's: rrweb's recorder without the PostCSS its replayer needs.
 */
import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { buildTracker } from '../build.js'

const CORE_GZIP_BUDGET = 2000
/** rrweb's `record` is about 26 KB gzipped; PostCSS coming back would add 38 KB. */
const REPLAY_GZIP_BUDGET = 30_000

describe('tracker build', () => {
  it(`keeps the core script within ${CORE_GZIP_BUDGET} bytes gzipped`, async () => {
    const { core, vitals, engagement, heatmap, replay } = await buildTracker()
    const gzip = (code: string) => zlib.gzipSync(code, { level: 9 }).length
    const brotli = (code: string) => zlib.brotliCompressSync(code).length
    console.log(
      `tracker core: ${Buffer.byteLength(core)} B minified, ${gzip(core)} B gzip, ${brotli(core)} B brotli ` +
        `(budget ${CORE_GZIP_BUDGET} B gzip); vitals chunk: ${Buffer.byteLength(vitals)} B minified, ` +
        `${gzip(vitals)} B gzip, ${brotli(vitals)} B brotli; engagement chunk: ${gzip(engagement)} B gzip; heatmap chunk: ${gzip(heatmap)} B gzip; replay chunk: ${Buffer.byteLength(replay)} B ` +
        `minified, ${gzip(replay)} B gzip, ${brotli(replay)} B brotli (budget ${REPLAY_GZIP_BUDGET} B gzip)`,
    )
    expect(gzip(core)).toBeLessThanOrEqual(CORE_GZIP_BUDGET)
    expect(gzip(replay)).toBeLessThanOrEqual(REPLAY_GZIP_BUDGET)
  })

  it('keeps web-vitals out of the core and in its own chunk', async () => {
    const { core, vitals, vitalsHash } = await buildTracker()
    expect(core).not.toContain('largest-contentful-paint')
    expect(vitals).toContain('largest-contentful-paint')
    expect(core).toContain(`script-vitals.js?v=${vitalsHash}`)
  })

  it('keeps engagement out of the core and in its own chunk, loaded by content hash', async () => {
    const { core, engagement, engagementHash } = await buildTracker()
    expect(core).not.toContain('scroll_depth')
    expect(engagement).toContain('scroll_depth')
    expect(core).toContain(`script-engagement.js?v=${engagementHash}`)
  })

  it('keeps heatmaps out of the core and in their own chunk, loaded by content hash', async () => {
    const { core, heatmap, heatmapHash } = await buildTracker()
    expect(core).not.toContain('nth-of-type')
    expect(heatmap).toContain('nth-of-type')
    expect(core).toContain(`script-heatmap.js?v=${heatmapHash}`)
  })

  it('keeps rrweb out of the core, and PostCSS out of the replay chunk', async () => {
    const { core, replay, replayHash } = await buildTracker()
    expect(core).not.toContain('rr_width')
    expect(replay).toContain('rr_width')
    expect(replay).not.toContain('CssSyntaxError')
    expect(replay).toMatch(/^\/\*! Pathlight session replay, with rrweb .* MIT \*\//)
    expect(core).toContain(`script-replay.js?v=${replayHash}`)
  })

  it('emits ES2017: no optional chaining, nullish coalescing or object spread', async () => {
    const { core, vitals, engagement, heatmap, replay } = await buildTracker()
    for (const code of [core, vitals, engagement, heatmap, replay])
      expect(code).not.toMatch(/\?\.[a-zA-Z_$[(]|\?\?|\{\.\.\./)
  })
})
