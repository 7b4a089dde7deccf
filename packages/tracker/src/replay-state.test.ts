import { describe, expect, it } from 'vitest'
import { createReplayStore, SESSION_GAP_MS } from './replay-state.js'

/** An in-memory Storage (what the store uses of it). */
function memoryStorage(): Storage {
  const items = new Map<string, string>()
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  } as Storage
}

const T0 = Date.UTC(2026, 0, 1)

describe('createReplayStore', () => {
  it('numbers batches from 0 across stores of the same storage (page loads, tabs)', () => {
    const storage = memoryStorage()
    const page1 = createReplayStore('7', () => storage)
    expect(page1.claim(T0).sequence).toBe(0)
    expect(page1.claim(T0 + 5000).sequence).toBe(1)
    const page2 = createReplayStore('7', () => storage)
    expect(page2.claim(T0 + 10_000)).toEqual({
      sequence: 2,
      startedAt: T0,
      lastSentAt: T0 + 5000,
      stopped: false,
    })
    expect(JSON.parse(storage.getItem('pathlight:replay:7') ?? '')).toMatchObject({ sequence: 3 })
    expect(createReplayStore('8', () => storage).claim(T0).sequence).toBe(0)
  })

  it('starts over after 30 minutes without a batch, stopped or not', () => {
    const storage = memoryStorage()
    const store = createReplayStore('7', () => storage)
    store.claim(T0)
    store.update(T0, { stopped: true })
    expect(store.read(T0 + SESSION_GAP_MS)).toMatchObject({ sequence: 1, stopped: true })
    expect(store.read(T0 + SESSION_GAP_MS + 1)).toEqual({
      sequence: 0,
      startedAt: T0 + SESSION_GAP_MS + 1,
      lastSentAt: T0 + SESSION_GAP_MS + 1,
      stopped: false,
    })
  })

  it('replaces invalid content', () => {
    const storage = memoryStorage()
    storage.setItem('pathlight:replay:7', '{"sequence":-1}')
    expect(createReplayStore('7', () => storage).read(T0).sequence).toBe(0)
    storage.setItem('pathlight:replay:7', 'not json')
    expect(createReplayStore('7', () => storage).claim(T0).sequence).toBe(0)
    expect(JSON.parse(storage.getItem('pathlight:replay:7') ?? '')).toMatchObject({ sequence: 1 })
  })

  it('keeps the state in the page when storage throws, numbering from the time', () => {
    const blocked = () => {
      throw new DOMException('denied', 'SecurityError')
    }
    const store = createReplayStore('7', blocked)
    const first = store.claim(T0).sequence
    // Deciseconds since 2024-01-01: a later page of the same session numbers after this one.
    expect(first).toBe((T0 - Date.UTC(2024, 0, 1)) / 100)
    expect(store.claim(T0 + 5000).sequence).toBe(first + 1)
    expect(createReplayStore('7', blocked).claim(T0 + 60_000).sequence).toBeGreaterThan(first + 1)
  })
})
