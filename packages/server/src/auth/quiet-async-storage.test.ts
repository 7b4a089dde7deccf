import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import { QuietAsyncLocalStorage } from './quiet-async-storage.js'

/** Node 20's AsyncLocalStorage keeps whether it is enabled (its promise hooks on) in `enabled`. */
const isEnabled = (storage: unknown) => (storage as { enabled?: boolean }).enabled === true

describe('QuietAsyncLocalStorage', () => {
  it('gives the store to everything a run awaits, then disables itself', async () => {
    const storage = new QuietAsyncLocalStorage<{ id: number }>()
    const seen = await storage.run({ id: 1 }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 5))
      await Promise.resolve()
      return storage.getStore()?.id
    })
    expect(seen).toBe(1)
    expect(storage.running).toBe(0)
    expect(isEnabled(storage)).toBe(false)
  })

  it('stays enabled while overlapping runs are in flight, each with its own store', async () => {
    const storage = new QuietAsyncLocalStorage<string>()
    let releaseA = () => {}
    const a = storage.run('a', async () => {
      await new Promise<void>((resolve) => {
        releaseA = resolve
      })
      return storage.getStore()
    })
    const b = await storage.run('b', async () => {
      await Promise.resolve()
      return storage.getStore()
    })
    expect(b).toBe('b')
    expect(storage.running).toBe(1)
    expect(isEnabled(storage)).toBe(true)
    releaseA()
    expect(await a).toBe('a')
    expect(isEnabled(storage)).toBe(false)
  })

  it('releases a run whose callback throws', () => {
    const storage = new QuietAsyncLocalStorage<number>()
    expect(() =>
      storage.run(1, () => {
        throw new Error('boom')
      }),
    ).toThrow('boom')
    expect(storage.running).toBe(0)
    expect(isEnabled(storage)).toBe(false)
  })

  it('releases a run whose promise rejects', async () => {
    const storage = new QuietAsyncLocalStorage<number>()
    await expect(storage.run(1, async () => Promise.reject(new Error('no')))).rejects.toThrow('no')
    expect(storage.running).toBe(0)
  })
})

describe("Better Auth's storages", () => {
  let t: TestInstance
  beforeAll(async () => {
    t = await openTestInstance()
  })
  afterAll(async () => {
    await t?.close()
  })

  it('are quiet ones, and none is enabled once sign-up and session reads are done', async () => {
    const { cookie } = await t.seed()
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } })
    expect(session.statusCode).toBe(200)
    expect(session.json()).toMatchObject({ user: { email: expect.any(String) } })
    const context = (globalThis as unknown as Record<symbol, { context: Record<string, unknown> }>)[
      Symbol.for('better-auth:global')
    ]?.context
    const storages = Object.entries(context ?? {}).filter(([key]) => key.endsWith('AsyncStorage'))
    expect(storages.map(([key]) => key).sort()).toEqual([
      'adapterAsyncStorage',
      'endpointContextAsyncStorage',
      'requestStateAsyncStorage',
    ])
    for (const [, storage] of storages) {
      expect(storage).toBeInstanceOf(QuietAsyncLocalStorage)
      expect(isEnabled(storage)).toBe(false)
    }
  })
})
