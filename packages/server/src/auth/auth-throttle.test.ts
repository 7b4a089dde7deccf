/**
 * The authentication throttle on an in-process counter with a test clock: limits per account+address and
 * per address, Retry-After, success resets, bursts, IPv6 /64 units, and the stats.
 */
import { describe, expect, it } from 'vitest'
import { createMemoryAttemptCounter } from './attempt-counter.js'
import { type AuthAttempt, addressUnit, createAuthThrottle } from './auth-throttle.js'

const limits = { accountMax: 5, addressMax: 50, windowMs: 15 * 60_000 }

function setup() {
  let now = Date.parse('2026-11-24T12:00:00Z')
  const clock = () => now
  const throttle = createAuthThrottle(createMemoryAttemptCounter(clock), limits, clock)
  const fail = async (attempt: AuthAttempt) => {
    const start = await throttle.begin(attempt)
    if (start.allowed) await start.finish('failure')
    return start
  }
  return { throttle, fail, advance: (ms: number) => (now += ms) }
}

const alice: AuthAttempt = { action: 'sign_in', account: 'alice@example.com', address: '203.0.113.7' }

describe('auth throttle', () => {
  it('refuses the 6th attempt of an account from one address for the rest of the window', async () => {
    const { throttle, fail, advance } = setup()
    for (let i = 0; i < 5; i++) expect((await fail(alice)).allowed).toBe(true)
    advance(60_000)
    const refused = await throttle.begin(alice)
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 14 * 60 })
    // The same account from another address, and another account from this one, still go ahead.
    expect((await throttle.begin({ ...alice, address: '198.51.100.1' })).allowed).toBe(true)
    expect((await throttle.begin({ ...alice, account: 'bob@example.com' })).allowed).toBe(true)
    advance(14 * 60_000)
    expect((await throttle.begin(alice)).allowed).toBe(true)
    expect(throttle.stats()).toEqual({
      failures: { sign_in: 5, sign_up: 0, password: 0, two_factor: 0, password_reset: 0 },
      throttled: 1,
    })
  })

  it('folds the account name to lower case', async () => {
    const { throttle, fail } = setup()
    for (let i = 0; i < 5; i++)
      await fail({ ...alice, account: i % 2 ? 'ALICE@example.com' : ' alice@example.com' })
    expect((await throttle.begin(alice)).allowed).toBe(false)
  })

  it('a success resets the account and gives its attempt back to the address', async () => {
    const { throttle, fail } = setup()
    for (let i = 0; i < 4; i++) await fail(alice)
    const right = await throttle.begin(alice)
    if (!right.allowed) throw new Error('refused')
    await right.finish('success')
    for (let i = 0; i < 5; i++) expect((await fail(alice)).allowed).toBe(true)
    expect((await throttle.begin(alice)).allowed).toBe(false)
  })

  it('an attempt the server failed (5xx) is not held against the client', async () => {
    const { throttle } = setup()
    for (let i = 0; i < 10; i++) {
      const start = await throttle.begin(alice)
      if (!start.allowed) throw new Error('refused')
      await start.finish('error')
    }
    expect(throttle.stats().failures.sign_in).toBe(0)
    expect((await throttle.begin(alice)).allowed).toBe(true)
  })

  it('refuses an address after 50 failures whatever the accounts', async () => {
    const { throttle, fail } = setup()
    for (let i = 0; i < 50; i++)
      expect((await fail({ ...alice, account: `user${i}@example.com` })).allowed).toBe(true)
    expect((await throttle.begin({ ...alice, account: 'new@example.com' })).allowed).toBe(false)
    expect(
      (await throttle.begin({ action: 'sign_up', account: undefined, address: alice.address })).allowed,
    ).toBe(false)
  })

  it('counts a burst of parallel attempts before any of them finishes', async () => {
    const { throttle } = setup()
    const starts = await Promise.all(Array.from({ length: 20 }, () => throttle.begin(alice)))
    expect(starts.filter((s) => s.allowed)).toHaveLength(5)
  })

  it('counts IPv6 clients per /64 and IPv4-mapped addresses as IPv4', async () => {
    expect(addressUnit('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
    expect(addressUnit('2001:db8:1:2:bbbb::9')).toBe('2001:db8:1:2::/64')
    expect(addressUnit('::ffff:192.0.2.1')).toBe('192.0.2.1')
    expect(addressUnit('not an address')).toBe('not an address')
    const { throttle, fail } = setup()
    for (let i = 0; i < 5; i++) await fail({ ...alice, address: `2001:db8:1:2::${i + 1}` })
    expect((await throttle.begin({ ...alice, address: '2001:db8:1:2:ffff::1' })).allowed).toBe(false)
    expect((await throttle.begin({ ...alice, address: '2001:db8:1:3::1' })).allowed).toBe(true)
  })

  it('counts password resets in a budget of their own: they never lock sign-in, nor sign-ins them', async () => {
    const { throttle, fail } = setup()
    const reset: AuthAttempt = { ...alice, action: 'password_reset' }
    for (let i = 0; i < 5; i++) expect((await fail(reset)).allowed).toBe(true)
    expect((await throttle.begin(reset)).allowed).toBe(false)
    expect((await throttle.begin(alice)).allowed).toBe(true)
    for (let i = 0; i < 50; i++) await fail({ ...alice, account: `other${i}@example.com` })
    expect((await throttle.begin(alice)).allowed).toBe(false)
    expect((await throttle.begin({ ...reset, account: 'bob@example.com' })).allowed).toBe(true)
  })
})
