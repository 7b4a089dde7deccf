/**
 * The session fold as the server runs it (`storage/events/fold-sessions.ts`, every
 * SESSION_FOLD_INTERVAL_MS through `periodic-job.ts`), followed by the sealing of the pages' closed
 * months (`storage/events/seal-page-months.ts`, with the same settling time). Two folds at once would
 * write the same summaries twice (two seals the same months), so with Redis (several processes sharing
 * a ClickHouse server, which need Redis for their sessions anyway) a pass runs only while it holds the
 * lock `pl:lock:session-fold` (under the configured key prefix), set with a random token and a
 * 15-minute expiry, and deletes it only if the token is still its own; a pass that finds the lock taken
 * skips. Without Redis there is one process, and the periodic job never overlaps its passes.
 */
import crypto from 'node:crypto'
import type { Redis } from 'ioredis'
import type { EventsStore } from '../storage/events/events-store.js'
import { type FoldOptions, type FoldResult, foldSessions } from '../storage/events/fold-sessions.js'
import { sealPageMonths } from '../storage/events/seal-page-months.js'

/** What a pass did: the fold's result and the (site, month) pairs sealed. */
export interface FoldPassResult extends FoldResult {
  sealedMonths: number
}

/** The lock's key (Redis adds the client's key prefix). */
export const SESSION_FOLD_LOCK = 'pl:lock:session-fold'
const LOCK_MS = 15 * 60_000
const RELEASE =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"

/**
 * A pass: fold the sessions and seal the pages' months now, under the lock when `redis` is given.
 * @param options the fold's (the server keeps the defaults); `settleMs` is the seal's too
 * @returns what the pass did, or null when another process held the lock
 * @throws the store's or Redis' error (the lock is released first)
 */
export function sessionFoldPass(
  events: EventsStore,
  redis?: Redis,
  options: FoldOptions = {},
): () => Promise<FoldPassResult | null> {
  const pass = async (): Promise<FoldPassResult> => {
    const fold = await foldSessions(events, options)
    const seal = options.settleMs === undefined ? {} : { settleMs: options.settleMs }
    return { ...fold, sealedMonths: await sealPageMonths(events, seal) }
  }
  return async () => {
    if (!redis) return pass()
    const token = crypto.randomUUID()
    if ((await redis.set(SESSION_FOLD_LOCK, token, 'PX', LOCK_MS, 'NX')) !== 'OK') return null
    try {
      return await pass()
    } finally {
      await redis.eval(RELEASE, 1, SESSION_FOLD_LOCK, token)
    }
  }
}

/** How long a pass after an import waits for another process's pass to release the lock (ms). */
export const IMPORT_FOLD_WAIT_MS = 60_000

/**
 * The pass an import runs before it answers: the same fold and seal with no settling time, so the
 * sessions and closed months it wrote are read folded from its answer on (not after the next periodic
 * pass, settling time included). Its inserts have committed when it runs, and the hours and months it
 * folds are closed ones (before the previous hour; before the current month), which live traffic does
 * not write. When another process holds the lock, retries every second for up to `waitMs`.
 * @returns what the pass did, or null when the lock stayed taken (the periodic pass folds it later)
 * @throws the store's or Redis' error
 */
export async function foldAfterImport(
  events: EventsStore,
  redis?: Redis,
  waitMs = IMPORT_FOLD_WAIT_MS,
): Promise<FoldPassResult | null> {
  const pass = sessionFoldPass(events, redis, { settleMs: 0 })
  const until = Date.now() + waitMs
  for (;;) {
    const result = await pass()
    if (result !== null || Date.now() >= until) return result
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}
