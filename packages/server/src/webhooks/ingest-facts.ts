/**
 * The facts the ingest pipeline produces for webhooks: `session.created` on the first event of a
 * session, `event.tracked` for each custom event, and `goal.converted` when an event completes one of
 * the site's goals for the first time in its session. Returns undefined when the site has no webhook
 * for them (cached), so ingestion pays nothing; goals are only matched for sites that want
 * `goal.converted`.
 *
 * Each fact is keyed (`outbox.ts`): `session.created` by its session, `event.tracked` by its event id,
 * `goal.converted` by session and goal. Deriving the facts of the same event again (journal recovery,
 * `recover-ingest-facts.ts`) therefore stores no delivery twice, and a goal converts once per session
 * even when two API nodes both think they saw it first.
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

/** What the facts of an event derive from: its stored row and whether it began its session. */
export type FactSource = Pick<Draft, 'row' | 'newSession'>

export function ingestFacts(outbox: Outbox, goals: GoalFactsDeps) {
  const goalConversions = async ({ row }: FactSource): Promise<void> => {
    for (const goal of await goals.goalsOf(row.site_id)) {
      if (!matchesGoal(goal, row)) continue
      if (!(await goals.conversions.firstTime(row.site_id, row.session_id, goal.goalId))) continue
      await outbox.enqueue(
        row.site_id,
        'goal.converted',
        {
          goalId: goal.goalId,
          goalName: goal.name,
          goalType: goal.goalType,
          sessionId: row.session_id,
          userId: row.user_id,
          event: { eventId: row.event_id, type: row.type, pathname: row.pathname, eventName: row.event_name },
        },
        { key: `goal.converted:${row.session_id}:${goal.goalId}`, at: row.timestamp },
      )
    }
  }

  return (source: FactSource): Promise<void> | undefined => {
    const { row } = source
    const pending: Promise<void>[] = []
    if (source.newSession) {
      const queued = outbox.enqueue(
        row.site_id,
        'session.created',
        {
          sessionId: row.session_id,
          userId: row.user_id,
          entryPage: row.pathname,
          referrer: row.referrer,
          channel: row.channel,
          country: row.country,
          browser: row.browser,
          deviceType: row.device_type,
        },
        { key: `session.created:${row.session_id}`, at: row.timestamp },
      )
      if (queued) pending.push(queued)
    }
    if (row.type === 'custom_event') {
      const queued = outbox.enqueue(
        row.site_id,
        'event.tracked',
        {
          eventName: row.event_name,
          properties: row.properties === '' ? {} : (parsePropertiesObject(row.properties) ?? {}),
          pathname: row.pathname,
          sessionId: row.session_id,
          userId: row.user_id,
        },
        { key: `event.tracked:${row.event_id}`, at: row.timestamp },
      )
      if (queued) pending.push(queued)
    }
    // Engagement events complete scroll-depth goals.
    if (row.type === 'pageview' || row.type === 'custom_event' || row.type === 'engagement') {
      const wants = outbox.wants(row.site_id, 'goal.converted')
      if (wants === true) pending.push(goalConversions(source))
      else if (wants !== false) pending.push(wants.then((yes) => (yes ? goalConversions(source) : undefined)))
    }
    if (pending.length === 0) return undefined
    return Promise.all(pending).then(() => undefined)
  }
}
