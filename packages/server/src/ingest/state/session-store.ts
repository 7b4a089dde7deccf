/**
 * Sessions (for the `putSession` stage): a visitor's session ends after more than 30 minutes without
 * an event: an event at most 30:00 (`SESSION_TIMEOUT_MS`, inclusive) after the visitor's latest one
 * joins its session, one later starts a new session. Imports (`transfer/import-sessions.ts`) apply the
 * same rule (`continuesSession`). `touch` returns the visitor's live session (extending it) or starts a new one. The in-process store
 * serves one node; `redis-session-store.ts` shares sessions between API nodes.
 */
import crypto from 'node:crypto'

export const SESSION_TIMEOUT_MS = 30 * 60_000

/**
 * Whether an event `gapMs` after a session's nearest event belongs to that session: a gap of at most
 * `timeoutMs` (30:00 joins, 30:00.001 does not).
 */
export const continuesSession = (gapMs: number, timeoutMs = SESSION_TIMEOUT_MS): boolean => gapMs <= timeoutMs

export interface SessionStore {
  /**
   * @param visitorKey `${siteId}:${userId}`
   * @param now epoch ms of the event
   * @returns the session id (UUID) and whether this event started it
   */
  touch(visitorKey: string, now: number): Promise<{ sessionId: string; isNew: boolean }>
  close(): Promise<void>
}

/** Sessions in a Map, swept of expired entries every minute; memory grows with live visitors only. */
export function createMemorySessionStore(timeoutMs = SESSION_TIMEOUT_MS): SessionStore {
  const sessions = new Map<string, { id: string; lastSeen: number }>()
  const sweep = setInterval(() => {
    const cutoff = Date.now() - timeoutMs
    for (const [key, s] of sessions) if (s.lastSeen < cutoff) sessions.delete(key)
  }, 60_000)
  sweep.unref()
  return {
    async touch(visitorKey, now) {
      const live = sessions.get(visitorKey)
      if (live && continuesSession(now - live.lastSeen, timeoutMs)) {
        live.lastSeen = Math.max(live.lastSeen, now)
        return { sessionId: live.id, isNew: false }
      }
      const id = crypto.randomUUID()
      sessions.set(visitorKey, { id, lastSeen: now })
      return { sessionId: id, isNew: true }
    },
    async close() {
      clearInterval(sweep)
      sessions.clear()
    },
  }
}
