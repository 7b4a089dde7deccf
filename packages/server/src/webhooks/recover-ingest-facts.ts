/**
 * The webhook facts of events recovered from the ingest journal. The outbox is written after the
 * journal append: a crash between the two leaves events that are stored (once recovery inserts them)
 * but whose `session.created`, `event.tracked` and `goal.converted` deliveries were never written.
 * Recovery derives the facts of every journaled event again, as ingest does; the facts are keyed
 * (`ingest-facts.ts`), so those that were written before the crash are not written twice.
 */

import { sessionFirstEventIds } from '../query/session-first-events.js'
import type { EventRow } from '../storage/events/event-row.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { createConversionTracker } from './conversion-tracker.js'
import { type GoalFactsDeps, ingestFacts } from './ingest-facts.js'
import type { Outbox } from './outbox.js'

/**
 * @returns a function to call with the journaled rows (oldest first) once they are in the events store;
 *   it resolves when their facts are in the outbox, and rejects when the metadata or events store fails
 *   (recovery then stops, and the journal segment stays for the next start)
 */
export function recoverIngestFacts(
  outbox: Outbox,
  goalsOf: GoalFactsDeps['goalsOf'],
  events: EventsStore,
): (rows: readonly EventRow[]) => Promise<void> {
  return async (rows) => {
    const sites = [...new Set(rows.map((r) => r.site_id))]
    const wantsSessions = new Set<number>()
    // Load each site's subscriptions and goals first, so the rows below are derived in their order
    // (the first of a session to match a goal is the one its conversion names).
    for (const site of sites) {
      if (await outbox.wants(site, 'session.created')) wantsSessions.add(site)
      if (await outbox.wants(site, 'goal.converted')) await goalsOf(site)
    }
    const firsts = await sessionFirstEventIds(
      events,
      rows.filter((r) => wantsSessions.has(r.site_id)),
    )
    // A tracker of its own: within the recovered rows, a goal converts on the first match per session;
    // a conversion stored before the crash has the same key, so it is not stored again.
    const facts = ingestFacts(outbox, { goalsOf, conversions: createConversionTracker() })
    const pending: Promise<void>[] = []
    for (const row of rows) {
      const queued = facts({ row, newSession: firsts.has(row.event_id) })
      if (queued) pending.push(queued)
    }
    await Promise.all(pending)
  }
}
