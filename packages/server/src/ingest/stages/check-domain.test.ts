import { describe, expect, it } from 'vitest'
import { stageDraft } from '../draft.fixture.js'
import { checkDomain, isSameSite } from './check-domain.js'

describe('isSameSite', () => {
  it.each([
    ['example.com', 'example.com', true],
    ['www.example.com', 'example.com', true],
    ['example.com', 'www.example.com', true],
    ['blog.example.com', 'example.com', true],
    ['EXAMPLE.com.', 'example.com', true],
    ['notexample.com', 'example.com', false],
    ['example.com.evil.test', 'example.com', false],
    ['example.org', 'example.com', false],
    ['', 'example.com', false],
  ])('%s on a site for %s: %s', (host, domain, expected) => {
    expect(isSameSite(host, domain)).toBe(expected)
  })
})

describe('checkDomain', () => {
  const mismatch = (host: string) => ({ ok: false, reason: { kind: 'domain_mismatch', host } })
  const noHeaders = { origin: undefined, referer: undefined }

  it('judges the Origin header first, then the Referer, then the body’s hostname', () => {
    const body = { hostname: 'example.com' }
    expect(checkDomain(stageDraft({ body, incoming: { origin: 'https://evil.test' } }))).toEqual(
      mismatch('evil.test'),
    )
    const referred = { origin: undefined, referer: 'https://EVIL.test/page' }
    expect(checkDomain(stageDraft({ body, incoming: referred }))).toEqual(mismatch('evil.test'))
    expect(checkDomain(stageDraft({ body: { hostname: 'evil.test' }, incoming: noHeaders }))).toEqual(
      mismatch('evil.test'),
    )
    expect(checkDomain(stageDraft({ body, incoming: noHeaders }))).toEqual({ ok: true })
  })

  it('skips an Origin of "null" (sandboxed pages, file:) and falls back to the next source', () => {
    const draft = stageDraft({ incoming: { origin: 'null', referer: 'https://www.example.com/' } })
    expect(checkDomain(draft)).toEqual({ ok: true })
  })

  it('refuses a request that names no host at all', () => {
    expect(checkDomain(stageDraft({ body: { hostname: '' }, incoming: noHeaders }))).toEqual(mismatch(''))
  })

  it('lets any host through when an API key authenticated the request', () => {
    const draft = stageDraft({ incoming: { origin: 'https://evil.test' }, authenticated: true })
    expect(checkDomain(draft)).toEqual({ ok: true })
  })
})
