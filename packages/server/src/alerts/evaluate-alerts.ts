/**
 * One evaluation pass over every enabled alert rule. A rule fires `alert.triggered` when its condition
 * starts to hold (state ok → triggered), not again while it keeps holding, and becomes ok once it no
 * longer holds, so the next crossing fires again. With `relative`, the observed value is the percent
 * change against the previous window; when the previous window is 0 the change is undefined and the
 * rule does not hold. The state change is a conditional UPDATE, so with several API nodes evaluating at
 * once exactly one of them fires. A rule that fires queues its `alert.triggered` webhooks and, with mail
 * configured, one mail to each of its `emailRecipients` (`mail/templates/alert.ts`) with a link to the
 * site's report over the days of the window (UTC).
 *
 * Crawler rules compare inclusively (at least / at most). A `crawler_new_agents` rule fires on each
 * evaluation that finds agents it has not seen (its observed value is their number), whatever its state,
 * and remembers them, so one agent fires it once; its first evaluation only remembers the agents there.
 * Its update is conditional on the agents it had read, so with several nodes one of them fires.
 */

import type { GoalDefinition } from '../goals/goal.js'
import { toGoal } from '../goals/goal.js'
import { enqueueMail } from '../mail/mail-outbox.js'
import { renderAlertMail } from '../mail/templates/alert.js'
import { alertMetricValue } from '../query/alert-metric.js'
import { crawlerAgentsSeen } from '../query/crawler-alert-metric.js'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { Outbox } from '../webhooks/outbox.js'
import { activeAlertRecipients, alertRecipientLinks } from './alert-recipients.js'
import { type AlertRule, toAlertRule } from './alert-rules.js'

/** One pass: the enabled rules evaluated, and the ids of those that fired. */
export interface EvaluationResult {
  evaluated: number
  fired: string[]
}

/** What a `crawler_new_agents` rule found: the agents it knew (null: none yet) and the new ones. */
interface AgentsSeen {
  before: string | null
  after: string
  added: string[]
}

async function newAgentsOf(events: EventsStore, rule: AlertRule, known: string | null): Promise<AgentsSeen> {
  const agents = await crawlerAgentsSeen(events, {
    siteId: rule.siteId,
    crawlerCategory: rule.crawlerCategory,
  })
  const seen = new Set<string>(known === null ? agents : (JSON.parse(known) as string[]))
  const added = agents.filter((agent) => !seen.has(agent))
  for (const agent of added) seen.add(agent)
  return { before: known, after: JSON.stringify([...seen].sort()), added }
}

async function goalOf(db: MetadataDb, siteId: number, goalId: number): Promise<GoalDefinition | null> {
  const row = await db
    .selectFrom('goal')
    .selectAll()
    .where('goal_id', '=', goalId)
    .where('site_id', '=', siteId)
    .executeTakeFirst()
  return row ? toGoal(row) : null
}

export async function evaluateAlerts(deps: {
  db: MetadataDb
  events: EventsStore
  outbox: Outbox
  clock?: Clock
  /** With mail configured, the public URL of the report links; absent: no alert mails. */
  mail?: { baseUrl: string }
}): Promise<EvaluationResult> {
  const clock = deps.clock ?? systemClock
  const rows = await deps.db.selectFrom('alert_rule').selectAll().execute()
  const fired: string[] = []
  let evaluated = 0
  for (const row of rows) {
    const rule = toAlertRule(row)
    if (!rule.enabled) continue
    evaluated++
    const now = clock()
    const window = rule.windowMinutes * 60_000
    const newAgents =
      rule.metric === 'crawler_new_agents' ? await newAgentsOf(deps.events, rule, row.known_agents) : null
    const goal = rule.goalId === null ? null : await goalOf(deps.db, rule.siteId, rule.goalId)
    const value = (from: number, to: number) => alertMetricValue(deps.events, rule, from, to, goal)
    const current = newAgents !== null ? newAgents.added.length : await value(now - window, now)
    const previous = rule.relative && newAgents === null ? await value(now - 2 * window, now - window) : null
    const observed =
      previous === null ? current : previous === 0 ? null : ((current - previous) / previous) * 100
    const inclusive = rule.metric === 'crawler_new_agents' || rule.metric === 'crawler_requests'
    const holds =
      observed !== null &&
      (rule.comparison === 'above'
        ? observed > rule.threshold || (inclusive && observed === rule.threshold)
        : observed < rule.threshold || (inclusive && observed === rule.threshold))
    const at = isoNow(clock)
    const next = holds ? 'triggered' : 'ok'
    let update = deps.db
      .updateTable('alert_rule')
      .set({
        state: next,
        last_value: observed,
        last_evaluated_at: at,
        ...(holds ? { last_triggered_at: at } : {}),
        ...(newAgents !== null ? { known_agents: newAgents.after } : {}),
      })
      .where('id', '=', rule.id)
    // New agents: each evaluation that finds some fires, once, whichever node wrote what it read first.
    if (newAgents === null) update = update.where('state', '=', holds ? 'ok' : 'triggered')
    else if (newAgents.before === null) update = update.where('known_agents', 'is', null)
    else update = update.where('known_agents', '=', newAgents.before)
    const changed = await update.executeTakeFirst()
    if (Number(changed.numUpdatedRows) === 0) {
      await deps.db
        .updateTable('alert_rule')
        .set({ last_value: observed, last_evaluated_at: at })
        .where('id', '=', rule.id)
        .execute()
      continue
    }
    if (!holds) continue
    fired.push(rule.id)
    await deps.outbox.enqueue(rule.siteId, 'alert.triggered', {
      ruleId: rule.id,
      ruleName: rule.name,
      metric: rule.metric,
      eventName: rule.eventName,
      goalId: rule.goalId,
      windowMinutes: rule.windowMinutes,
      comparison: rule.comparison,
      relative: rule.relative,
      threshold: rule.threshold,
      crawlerCategory: rule.crawlerCategory,
      crawlerAgent: rule.crawlerAgent,
      ...(newAgents !== null ? { newAgents: newAgents.added } : {}),
      observed,
      previous,
      windowStart: new Date(now - window).toISOString(),
      windowEnd: new Date(now).toISOString(),
    })
    if (deps.mail && rule.emailRecipients.length > 0 && observed !== null) {
      const site = await deps.db
        .selectFrom('site')
        .select('domain')
        .where('site_id', '=', rule.siteId)
        .executeTakeFirst()
      const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10)
      const query = new URLSearchParams({
        period: 'custom',
        from: dayOf(now - window),
        to: dayOf(now),
        tz: 'UTC',
      })
      for (const recipient of await activeAlertRecipients(deps.db, rule.id)) {
        const links = alertRecipientLinks(deps.mail.baseUrl, recipient.token)
        const mail = renderAlertMail({
          rule,
          siteDomain: site?.domain ?? `site ${rule.siteId}`,
          observed,
          previous,
          newAgents: newAgents?.added,
          windowStart: new Date(now - window),
          windowEnd: new Date(now),
          reportUrl: `${deps.mail.baseUrl}/sites/${rule.siteId}?${query}`,
          unsubscribeUrl: links.unsubscribePage,
        })
        await enqueueMail(
          deps.db,
          {
            kind: 'alert',
            to: recipient.email,
            ...mail,
            headers: {
              'List-Unsubscribe': `<${links.unsubscribeEndpoint}>`,
              'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
            },
          },
          new Date(now),
        )
      }
    }
  }
  return { evaluated, fired }
}
