/**
 * The recording state of one visitor of one site, kept in localStorage (`pathlight:replay:<siteId>`) so
 * that every page load and every tab of the visitor's server session continues the same recording:
 *
 * - `sequence` numbers the batches. The server reads a session's batches in sequence order and drops a
 *   repeated number as a retry, so every batch of a server session must take a fresh one: each send
 *   takes the stored number and stores the next (`claim`).
 * - `lastSentAt` is when a batch was last sent, or, once stopped, a page last started the recorder. The
 *   server ends a session after 30 minutes without events; when `lastSentAt` is older than that
 *   (`SESSION_GAP_MS`), the state starts over: sequence 0, a new `startedAt`, not stopped.
 * - `startedAt` is when the recording of this session started (the maximum length counts from it).
 * - `stopped` is set once the server says it will not record this session (not sampled, replay off,
 *   over its cap, excluded) or the maximum length is reached: later pages do not record.
 *
 * Limitations: tabs read and write the state without a lock, so two tabs sending in the same instant
 * may take the same number (the server then keeps one of the two batches); tabs of one session each
 * record their own page, and their batches interleave in one recording. The 30-minute rule mirrors the
 * server's clock only roughly: a batch sent right at the boundary may land in a new server session
 * that lacks the start of the recording, or (rarely) repeat a number of the old one.
 * When storage is unavailable (blocked, sandboxed), the state lives in the page only, and a fresh state
 * numbers from the time in deciseconds since 2024 instead of 0, so that the batches of later pages of
 * the same server session still sort after, and do not repeat, those of earlier ones.
 */

/** The recording state; times are epoch milliseconds. */
export interface ReplayState {
  /** The sequence number the next batch takes. */
  sequence: number
  /** When this session's recording started. */
  startedAt: number
  /** When a batch was last sent (or, once stopped, a page last loaded the recorder). */
  lastSentAt: number
  /** True once recording stopped for the rest of the session. */
  stopped: boolean
}

/** The server's session timeout: after this long without a batch the recording starts over. */
export const SESSION_GAP_MS = 30 * 60_000

/** 2024-01-01T00:00:00Z: the origin of the time-based sequence numbers used without storage. */
const SEQUENCE_EPOCH_MS = 1_704_067_200_000

/** Reads and updates one site's state. Never throws. */
export interface ReplayStore {
  /** The state at `now`: the stored one, or a fresh one when none is stored, it is invalid or expired. */
  read(now: number): ReplayState
  /** Store `changes` over the state at `now` and return the result. */
  update(now: number, changes: Partial<ReplayState>): ReplayState
  /** Take the next sequence number at `now` (and set `lastSentAt`); returns the state it was taken from. */
  claim(now: number): ReplayState
}

const isState = (value: unknown): value is ReplayState => {
  const state = value as ReplayState | null
  return (
    !!state &&
    Number.isInteger(state.sequence) &&
    state.sequence >= 0 &&
    typeof state.startedAt === 'number' &&
    typeof state.lastSentAt === 'number' &&
    typeof state.stopped === 'boolean'
  )
}

/**
 * The store of site `siteId` over `storage` (called on every access, since reading `localStorage`
 * itself throws in some sandboxes; default `localStorage`).
 */
export function createReplayStore(siteId: string, storage: () => Storage = () => localStorage): ReplayStore {
  const key = `pathlight:replay:${siteId}`
  let memory: ReplayState | undefined
  let shared = true
  const load = (): ReplayState | undefined => {
    try {
      const value = JSON.parse(storage().getItem(key) || 'null')
      shared = true
      return isState(value) ? value : undefined
    } catch (error) {
      // Unparsable content is replaced; unusable storage leaves the state to this page.
      shared = error instanceof SyntaxError
      return shared || !memory ? undefined : Object.assign({}, memory)
    }
  }
  const store: ReplayStore = {
    read(now) {
      const state = load()
      if (state && now - state.lastSentAt <= SESSION_GAP_MS) return state
      return {
        sequence: shared ? 0 : Math.max(0, Math.floor((now - SEQUENCE_EPOCH_MS) / 100)) % 2 ** 32,
        startedAt: now,
        lastSentAt: now,
        stopped: false,
      }
    },
    update(now, changes) {
      const state = Object.assign(store.read(now), changes)
      memory = state
      try {
        storage().setItem(key, JSON.stringify(state))
      } catch {
        // storage full or blocked: the page keeps its own copy
      }
      return state
    },
    claim(now) {
      const state = store.read(now)
      store.update(now, { sequence: state.sequence + 1, lastSentAt: now })
      return state
    },
  }
  return store
}
