import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NOW, openStageDeps, type StageDeps, stageDraft } from '../draft.fixture.js'
import { authenticateKey } from './authenticate-key.js'

describe('authenticateKey', () => {
  let deps: StageDeps
  let now = NOW
  /** Keys of a member of the site's organization, by scope, and one of a user outside it. */
  const keys = { full: '', track: '', read: '', outsider: '', expired: '' }

  beforeAll(async () => {
    deps = await openStageDeps({ clock: () => now })
    const member = await deps.addUser('member', 'member')
    const outsider = await deps.addUser('outsider', null)
    keys.full = (await deps.apiKeys.create(member, { name: 'full', scope: 'full' })).key
    keys.track = (await deps.apiKeys.create(member, { name: 'track', scope: 'track' })).key
    keys.read = (await deps.apiKeys.create(member, { name: 'read', scope: 'read' })).key
    keys.outsider = (await deps.apiKeys.create(outsider, { name: 'outsider' })).key
    const expiresAt = new Date(NOW + 60_000).toISOString()
    keys.expired = (await deps.apiKeys.create(member, { name: 'expired', expiresAt })).key
  })
  afterAll(() => deps.close())

  const withHeader = async (authorization: string | undefined) => {
    const draft = stageDraft({ incoming: { authorization } })
    return { result: await authenticateKey(draft, deps), authenticated: draft.authenticated }
  }

  it('lets a request without an Authorization header (or an empty one) through unauthenticated', async () => {
    expect(await withHeader(undefined)).toEqual({ result: { ok: true }, authenticated: false })
    expect(await withHeader('')).toEqual({ result: { ok: true }, authenticated: false })
  })

  it('authenticates a full or track key of a member, whatever the case of "Bearer"', async () => {
    expect(await withHeader(`Bearer ${keys.full}`)).toEqual({ result: { ok: true }, authenticated: true })
    expect(await withHeader(`bearer ${keys.track}`)).toEqual({ result: { ok: true }, authenticated: true })
  })

  it.each([
    ['an unknown key', 'Bearer pl_unknown'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['"Bearer" alone', 'Bearer'],
  ])('refuses %s as invalid_api_key (401)', async (_name, header) => {
    expect(await withHeader(header)).toEqual({
      result: { ok: false, reason: { kind: 'invalid_api_key' } },
      authenticated: false,
    })
  })

  it('refuses a key past its expiry as invalid_api_key', async () => {
    now = NOW + 61_000
    try {
      expect((await withHeader(`Bearer ${keys.expired}`)).result).toEqual({
        ok: false,
        reason: { kind: 'invalid_api_key' },
      })
    } finally {
      now = NOW
    }
  })

  it('refuses the key of a user outside the site’s organization as access_denied (403)', async () => {
    expect(await withHeader(`Bearer ${keys.outsider}`)).toEqual({
      result: { ok: false, reason: { kind: 'access_denied' } },
      authenticated: false,
    })
  })

  it('refuses a read-scoped key as key_scope, naming the scope', async () => {
    expect(await withHeader(`Bearer ${keys.read}`)).toEqual({
      result: { ok: false, reason: { kind: 'key_scope', scope: 'read' } },
      authenticated: false,
    })
  })

  it('takes the body’s ip_address and user_agent only from a request it authenticated', async () => {
    const body = { ip_address: '81.2.69.142', user_agent: 'Their visitor' }
    const incoming = { ip: '198.51.100.4', userAgent: 'Their server' }
    const keyed = stageDraft({ body, incoming: { ...incoming, authorization: `Bearer ${keys.full}` } })
    expect(await authenticateKey(keyed, deps)).toEqual({ ok: true })
    expect([keyed.ip, keyed.userAgent]).toEqual(['81.2.69.142', 'Their visitor'])
    const keyless = stageDraft({ body, incoming })
    expect(await authenticateKey(keyless, deps)).toEqual({ ok: true })
    expect([keyless.ip, keyless.userAgent]).toEqual(['198.51.100.4', 'Their server'])
    const refused = stageDraft({ body, incoming: { ...incoming, authorization: `Bearer ${keys.outsider}` } })
    expect((await authenticateKey(refused, deps)).ok).toBe(false)
    expect([refused.ip, refused.userAgent]).toEqual(['198.51.100.4', 'Their server'])
  })
})
