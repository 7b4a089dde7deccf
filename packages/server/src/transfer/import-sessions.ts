/**
 * Sessions of imported events, by timestamp: per visitor, an event joins the session whose span it
 * falls in or lies at most 30 minutes from (30:00 joins, 30:00.001 does not: `continuesSession`, the
 * rule of live tracking), else it starts a new one. Exact when each visitor's events arrive oldest first (exports are written so); events out of
 * order join a session they are near, but two sessions that a late event would bridge stay two.
 * Imported sessions never join live ones (their ids are new UUIDs). Memory: one entry per session of
 * the import.
 */
import crypto from 'node:crypto'
import { continuesSession, SESSION_TIMEOUT_MS } from '../ingest/state/session-store.js'

interface Span {
  id: string
  start: number
  end: number
}

export interface ImportSessions {
  /**
   * @param visitor the visitor's id (`user_id`)
   * @param at the event's time, epoch ms
   * @returns the session id (UUID) the event belongs to
   */
  assign(visitor: string, at: number): string
}

export function createImportSessions(timeoutMs = SESSION_TIMEOUT_MS): ImportSessions {
  const spans = new Map<string, Span[]>()
  return {
    assign(visitor, at) {
      let list = spans.get(visitor)
      if (!list) {
        list = []
        spans.set(visitor, list)
      }
      // The newest span is the usual match: look from the end.
      for (let i = list.length - 1; i >= 0; i--) {
        const span = list[i] as Span
        if (continuesSession(span.start - at, timeoutMs) && continuesSession(at - span.end, timeoutMs)) {
          if (at < span.start) span.start = at
          if (at > span.end) span.end = at
          return span.id
        }
      }
      const span = { id: crypto.randomUUID(), start: at, end: at }
      list.push(span)
      return span.id
    },
  }
}
