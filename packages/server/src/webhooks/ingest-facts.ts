/**
 * The facts the ingest pipeline produces for webhooks: `session.created` on the first event of a
 * session, and `event.tracked` for each custom event. Returns undefined when the site has no webhook
 * for them (cached), so ingestion pays nothing.
 */
import type { Draft } from '../ingest/draft.js'
import { parsePropertiesObject } from '../ingest/payload.js'
import type { Outbox } from './outbox.js'

export function ingestFacts(outbox: Outbox) {
  return (draft: Draft): Promise<void> | undefined => {
    const { row } = draft
    const pending: Promise<void>[] = []
    if (draft.newSession) {
      const queued = outbox.enqueue(row.site_id, 'session.created', {
        sessionId: row.session_id,
        userId: row.user_id,
        entryPage: row.pathname,
        referrer: row.referrer,
        channel: row.channel,
        country: row.country,
        browser: row.browser,
        deviceType: row.device_type,
      })
      if (queued) pending.push(queued)
    }
    if (row.type === 'custom_event') {
      const queued = outbox.enqueue(row.site_id, 'event.tracked', {
        eventName: row.event_name,
        properties: row.properties === '' ? {} : (parsePropertiesObject(row.properties) ?? {}),
        pathname: row.pathname,
        sessionId: row.session_id,
        userId: row.user_id,
      })
      if (queued) pending.push(queued)
    }
    if (pending.length === 0) return undefined
    return Promise.all(pending).then(() => undefined)
  }
}
