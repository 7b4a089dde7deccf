import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openChdbStore, READ_THREAD_NICENESS } from './chdb-store.js'
import { eventsStoreContract } from './events-store.contract.js'

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-chdb-'))

eventsStoreContract('chDB (@clickhouse/client over chdb/connection)', () => openChdbStore(tempDir()))
// The insert path a ClickHouse server gets (rows as the body of an INSERT statement), run on chDB.
eventsStoreContract('chDB, rows sent as INSERT statements', () =>
  openChdbStore(tempDir(), { rawInsert: false }),
)

describe('chDB store', () => {
  it('releases its data directory when opening fails, so another can be opened in this process', async () => {
    const broken = tempDir()
    // A migrations table that cannot record a migration name: migration 001 fails to be recorded.
    const store = await openChdbStore(broken)
    await store.command('DROP TABLE pathlight_migrations')
    await store.command(
      `CREATE TABLE pathlight_migrations (name UInt8, applied_at DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY name`,
    )
    await store.close()
    await expect(openChdbStore(broken)).rejects.toThrow(/Events migration 001-events failed/)

    const other = await openChdbStore(tempDir())
    expect(await other.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }])
    await other.close()
  })

  it('runs reads on niced threads, so that they yield the CPUs to the event loop (tracking)', async () => {
    const store = await openChdbStore(tempDir())
    try {
      const [row] = await store.query<{ nice: number | string }>(
        "SELECT getSetting('os_thread_priority') AS nice",
      )
      expect(Number(row?.nice)).toBe(READ_THREAD_NICENESS)
      expect(READ_THREAD_NICENESS).toBeGreaterThan(0)
    } finally {
      await store.close()
    }
  })

  it('answers a read while another runs, and gives a read beside another fewer CPUs', async () => {
    const store = await openChdbStore(tempDir())
    try {
      let slowDone = false
      const slow = store.query('SELECT sleep(2) AS slept').then(() => {
        slowDone = true
      })
      const [beside] = await store.query<{ threads: number }>("SELECT getSetting('max_threads') AS threads")
      // Bound parameters would have queued the second query behind the first.
      expect(slowDone).toBe(false)
      expect(beside?.threads).toBe(Math.max(1, Math.floor(os.availableParallelism() / 2)))
      await slow
      const [alone] = await store.query<{ threads: number }>("SELECT getSetting('max_threads') AS threads")
      expect(alone?.threads).toBe(os.availableParallelism())
      // More reads than sessions: the rest wait their turn, and all answer.
      const many = await Promise.all(
        Array.from({ length: 9 }, (_, i) => store.query<{ i: number }>('SELECT {i:UInt8} AS i', { i })),
      )
      expect(many.map((rows) => rows[0]?.i)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8])
    } finally {
      await store.close()
    }
  })

  it('keeps a failed query from reaching the next one on any session', async () => {
    const store = await openChdbStore(tempDir())
    try {
      // Fails while reading, after the result has begun: the failure that left output behind.
      const failing = "SELECT number FROM numbers(3) WHERE match(toString(number), '[[:foo:]]')"
      const rounds = await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const failed = await store.query(failing).then(
            () => 'answered',
            (error: Error) => error.message,
          )
          const [row] = await store.query<{ i: number }>('SELECT {i:UInt8} AS i', { i })
          return { failed, i: row?.i }
        }),
      )
      for (const [i, round] of rounds.entries()) {
        expect(round.failed).toMatch(/cannot compile re2/)
        expect(round.i).toBe(i)
      }
      // Statements and inserts take the same care on their session.
      await expect(store.command('SELECT throwIf(number = 2) FROM numbers(5)')).rejects.toThrow(/throwIf/)
      await store.command('SELECT 1')
      expect(await store.query<{ n: number }>('SELECT count() AS n FROM events')).toEqual([{ n: 0 }])
    } finally {
      await store.close()
    }
  })

  it('stops a read query at the time bound and answers the next', async () => {
    const store = await openChdbStore(tempDir(), { queryTimeoutSeconds: 1 })
    try {
      const started = performance.now()
      await expect(
        store.query('SELECT count() AS n FROM numbers(100000000000) WHERE sipHash64(number) = 1'),
      ).rejects.toThrow(/TIMEOUT_EXCEEDED|Timeout exceeded/)
      expect(performance.now() - started).toBeLessThan(20_000)
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => store.query<{ i: number }>('SELECT {i:UInt8} AS i', { i })),
      )
      expect(answers.map((rows) => rows[0]?.i)).toEqual([0, 1, 2, 3, 4, 5])
    } finally {
      await store.close()
    }
  })

  it('refuses a second data directory while one is open', async () => {
    const open = await openChdbStore(tempDir())
    try {
      await expect(openChdbStore(tempDir())).rejects.toThrow(/one active data directory per process/)
    } finally {
      await open.close()
    }
  })
})
