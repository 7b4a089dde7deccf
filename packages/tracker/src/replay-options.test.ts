import { describe, expect, it } from 'vitest'
import { replayOptionsOf } from './replay-options.js'

/** A script tag as far as the options read it. */
const tag = (attributes: Record<string, string>) =>
  ({
    src: 'https://stats.example/api/script.js',
    getAttribute: (name: string) => attributes[name] ?? null,
    hasAttribute: (name: string) => name in attributes,
  }) as unknown as HTMLScriptElement

describe('replayOptionsOf', () => {
  it('reads the site, the endpoint next to the script, the URL switch and the longest recording', () => {
    const options = replayOptionsOf({
      script: tag({ 'data-site-id': '42', 'data-replay-max-minutes': '10', 'data-hash-mode': '' }),
      config: { trackUrlParams: true },
    })
    expect(options).toMatchObject({
      siteId: '42',
      url: 'https://stats.example/api/replay',
      trackUrlParams: true,
      hashMode: true,
      maxMs: 600_000,
    })
  })

  it('defaults to 30 minutes for a missing or invalid length, URL params and hash mode off', () => {
    for (const value of [undefined, '', '0', '-5', 'ten']) {
      const attributes: Record<string, string> = { 'data-site-id': '1' }
      if (value !== undefined) attributes['data-replay-max-minutes'] = value
      const options = replayOptionsOf({ script: tag(attributes), config: {} })
      expect(options.maxMs, value).toBe(30 * 60_000)
      expect(options.trackUrlParams).toBe(false)
      expect(options.hashMode).toBe(false)
    }
  })
})
