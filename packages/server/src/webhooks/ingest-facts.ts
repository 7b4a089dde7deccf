/**
 * The facts the ingest pipeline produces for webhooks: `session.created` on the first event of a
 * session, `event.tracked` for each custom event, and `goal.converted` when an event completes one of
 * the site's goals for the first time in its session. Returns undefined when the site has no webhook
 * for them (cached), so ingestion pays nothing; goals are only matched for sites that want
 * `goal.converted`.
 */
import type { Goal } from '../goals/goal.js'
import { matchesGoal } from '../goals/match-goal.js'
import type { Draft } from '../ingest/draft.js'
import { parsePropertiesObject } from '../ingest/payload.js'
import type { ConversionTracker } from './conversion-tracker.js'
import type { Outbox } from './outbox.js'

export interface GoalFactsDeps {
  /** The site's goals (cached by the caller: a hit may answer without a promise). */
  goalsOf(siteId: number): readonly Goal[] | Promise<readonly Goal[]>
  conversions: ConversionTracker
}

export function ingestFacts(outbox: Outbox, goals: GoalFactsDeps) {
  const goalConversions = async (draft: Draft): Promise<void> => {
    const { row } = draft
    for (const goal of await goals.goalsOf(row.site_id)) {
      if (!matchesGoal(goal, row)) continue
      if (!(await goals.conversions.firstTime(row.site_id, row.session_id, goal.goalId))) continue
      await outbox.enqueue(row.site_id, 'goal.converted', {
        goalId: goal.goalId,
        goalName: goal.name,
        goalType: goal.goalType,
        sessionId: row.session_id,
        userId: row.user_id,
        event: { eventId: row.event_id, type: row.type, pathname: row.pathname, eventName: row.event_name },
      })
    }
  }

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
    if (row.type === 'pageview' || row.type === 'custom_event') {
      const wants = outbox.wants(row.site_id, 'goal.converted')
      if (wants === true) pending.push(goalConversions(draft))
      else if (wants !== false) pending.push(wants.then((yes) => (yes ? goalConversions(draft) : undefined)))
    }
    if (pending.length === 0) return undefined
    return Promise.all(pending).then(() => undefined)
  }
}
