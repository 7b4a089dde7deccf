/**
 * The size budget of the core script: at most 2,000 bytes gzipped (what `/api/script.js` serves), with
 * web-vitals kept out of it (its chunk is separate and loaded only on sites with `webVitals`).
 */
import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { buildTracker } from '../build.js'

const CORE_GZIP_BUDGET = 2000

describe('tracker build', () => {
  it(`keeps the core script within ${CORE_GZIP_BUDGET} bytes gzipped`, async () => {
    const { core, vitals } = await buildTracker()
    const gzip = (code: string) => zlib.gzipSync(code, { level: 9 }).length
    const brotli = (code: string) => zlib.brotliCompressSync(code).length
    console.log(
      `tracker core: ${Buffer.byteLength(core)} B minified, ${gzip(core)} B gzip, ${brotli(core)} B brotli ` +
        `(budget ${CORE_GZIP_BUDGET} B gzip); vitals chunk: ${Buffer.byteLength(vitals)} B minified, ` +
        `${gzip(vitals)} B gzip, ${brotli(vitals)} B brotli`,
    )
    expect(gzip(core)).toBeLessThanOrEqual(CORE_GZIP_BUDGET)
  })

  it('keeps web-vitals out of the core and in its own chunk', async () => {
    const { core, vitals, vitalsHash } = await buildTracker()
    expect(core).not.toContain('largest-contentful-paint')
    expect(vitals).toContain('largest-contentful-paint')
    expect(core).toContain(`script-vitals.js?v=${vitalsHash}`)
  })

  it('emits ES2017: no optional chaining, nullish coalescing or object spread', async () => {
    const { core, vitals } = await buildTracker()
    for (const code of [core, vitals]) expect(code).not.toMatch(/\?\.[a-zA-Z_$[(]|\?\?|\{\.\.\./)
  })
})
