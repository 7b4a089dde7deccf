import { describe, expect, it } from 'vitest'
import { createOriginPolicy, isStateChanging } from './origin-policy.js'

describe('origin policy', () => {
  const configured = createOriginPolicy({
    baseUrl: 'https://analytics.example.com',
    baseUrlConfigured: true,
    trustedOrigins: ['https://admin.example.org'],
  })
  const unconfigured = createOriginPolicy({
    baseUrl: 'http://127.0.0.1:3000',
    baseUrlConfigured: false,
    trustedOrigins: [],
  })

  it('trusts BASE_URL and TRUSTED_ORIGINS, by Origin or else by Referer', () => {
    const host = 'analytics.example.com'
    expect(() => configured.assertTrusted({ origin: 'https://analytics.example.com', host })).not.toThrow()
    expect(() => configured.assertTrusted({ origin: 'https://admin.example.org', host })).not.toThrow()
    expect(() =>
      configured.assertTrusted({ referer: 'https://analytics.example.com/sites/1/settings?x=1', host }),
    ).not.toThrow()
  })

  it('refuses other origins, a missing Origin and Referer, and opaque origins, saying why', () => {
    const host = 'analytics.example.com'
    expect(() => configured.assertTrusted({ origin: 'https://evil.example', host })).toThrow(
      'origin "https://evil.example" is not BASE_URL or a trusted origin',
    )
    expect(() => configured.assertTrusted({ origin: 'http://analytics.example.com', host })).toThrow(
      'is not BASE_URL',
    )
    expect(() => configured.assertTrusted({ origin: 'null', host })).toThrow('"null" is not BASE_URL')
    expect(() => configured.assertTrusted({ host })).toThrow('must carry an Origin or Referer header')
    expect(() =>
      configured.assertTrusted({ origin: 'https://evil.example', referer: 'https://analytics.example.com/' }),
    ).toThrow('is not BASE_URL')
  })

  it('with BASE_URL configured, the Host header is not trusted', () => {
    expect(() => configured.assertTrusted({ origin: 'https://evil.example', host: 'evil.example' })).toThrow()
  })

  it('without BASE_URL, the request’s own host is the origin (same-origin)', () => {
    expect(() =>
      unconfigured.assertTrusted({ origin: 'http://localhost:3000', host: 'localhost:3000' }),
    ).not.toThrow()
    expect(() =>
      unconfigured.assertTrusted({ origin: 'http://127.0.0.1:3000', host: 'localhost:3000' }),
    ).not.toThrow()
    expect(() =>
      unconfigured.assertTrusted({ origin: 'http://evil.example', host: 'localhost:3000' }),
    ).toThrow()
    expect(unconfigured.trustedFor('bad host/with path')).toEqual(['http://127.0.0.1:3000'])
  })

  it('state-changing methods', () => {
    expect(['POST', 'PUT', 'PATCH', 'DELETE'].every(isStateChanging)).toBe(true)
    expect(['GET', 'HEAD', 'OPTIONS'].some(isStateChanging)).toBe(false)
  })
})
