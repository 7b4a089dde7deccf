/**
 * Alert rules of a site: a metric over a trailing window compared with a threshold, or, with
 * `relative`, the metric's percent change against the window before it.
 *
 * Metrics (counted over events whose timestamp is in (now - window, now]):
 * - `pageviews`: pageview events; `sessions`: distinct sessions with any event; `visitors`: distinct
 *   user ids with any event; `custom_events`: custom events (only those named `eventName` when set);
 *   `errors`: JavaScript error events; `goal_conversions`: sessions with an event completing the goal
 *   `goalId` in the window;
 * - `crawler_requests`: the site's crawler requests (its ingested access logs, by the logged time),
 *   only those of `crawlerCategory` (`ai`: the three AI categories) or of `crawlerAgent` when set;
 * - `crawler_new_agents`: the agents (of `crawlerCategory` when set) seen on the site since the
 *   evaluation before, that it had never seen; the window does not apply. Its first evaluation takes
 *   the agents already there as seen (`crawler-alert-metrics.ts`).
 * Crawler rules compare inclusively: `above` is at least, `below` at most (a new agent is `above 1`,
 * a doubling `relative` `above 100`).
 *
 * `emailRecipients` are mailed when the rule fires (`evaluate-alerts.ts`), besides the site's webhooks,
 * once each address agreed: members of the site's organization at once, other addresses after
 * confirming from a mailed link (`alert-recipients.ts`). Without mail configured a rule with recipients
 * is saved all the same (its webhooks work; `mailWarning` says what its recipients miss).
 *
 * Each write is audited on behalf of the acting user (`alert_rule.created`, `alert_rule.updated`,
 * `alert_rule.deleted`) in its transaction.
 */
import crypto from 'node:crypto'
import {
  type AlertCrawlerCategory,
  alertMetrics,
  alertRuleProblem,
  type CreateAlertBody,
  createAlertBody,
  type UpdateAlertBody,
  updateAlertBody,
  type AlertRule as WireAlertRule,
} from '@pathlight/protocol'
import type { Transaction } from 'kysely'
import { type AuditAction, recordSiteAudit } from '../audit/audit-log.js'
import { badRequest, notFound } from '../shared/errors.js'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { fromBool, type MetadataSchema, toBool } from '../storage/metadata/schema.js'
import type { AlertRuleTable } from '../storage/metadata/webhook-schema.js'
import {
  type AlertMailOptions,
  type AlertRecipientState,
  recipientsOfRules,
  syncAlertRecipients,
} from './alert-recipients.js'

export { alertMetrics }
export type AlertMetric = (typeof alertMetrics)[number]

/** An alert rule as the API returns it: the protocol's wire shape. */
export type AlertRule = WireAlertRule

export { createAlertBody, updateAlertBody }

/** A parsed new rule; `relative` and `enabled` default as in `createAlertBody` when left out. */
export type NewAlertRule = Omit<CreateAlertBody, 'relative' | 'enabled' | 'emailRecipients'> &
  Partial<Pick<CreateAlertBody, 'relative' | 'enabled' | 'emailRecipients'>>

/**
 * A stored rule as the API returns it.
 * @param recipients the states of its addresses (`alert-recipients.ts`); default: each `pending`
 */
export function toAlertRule(row: AlertRuleTable, recipients?: AlertRecipientState[]): AlertRule {
  const emailRecipients = JSON.parse(row.email_recipients) as string[]
  return {
    id: row.id,
    siteId: Number(row.site_id),
    name: row.name,
    metric: row.metric as AlertMetric,
    eventName: row.event_name,
    goalId: row.goal_id === null ? null : Number(row.goal_id),
    crawlerCategory: (row.crawler_category ?? null) as AlertCrawlerCategory | null,
    crawlerAgent: row.crawler_agent ?? null,
    windowMinutes: Number(row.window_minutes),
    comparison: row.comparison,
    threshold: Number(row.threshold),
    relative: toBool(row.relative),
    enabled: toBool(row.enabled),
    emailRecipients,
    recipients: recipients ?? emailRecipients.map((email) => ({ email, status: 'pending' as const })),
    state: row.state,
    lastValue: row.last_value === null ? null : Number(row.last_value),
    lastEvaluatedAt: row.last_evaluated_at,
    lastTriggeredAt: row.last_triggered_at,
    createdAt: row.created_at,
  }
}

/** What an alert rule's audit entries say about it: its id, name and condition. */
export function alertRuleAuditDetails(rule: AlertRule) {
  return {
    alertRuleId: rule.id,
    name: rule.name,
    metric: rule.metric,
    eventName: rule.eventName,
    goalId: rule.goalId,
    // The crawler filters only where they apply, so other rules' entries read as before.
    ...(rule.metric === 'crawler_new_agents' || rule.metric === 'crawler_requests'
      ? { crawlerCategory: rule.crawlerCategory, crawlerAgent: rule.crawlerAgent }
      : {}),
    windowMinutes: rule.windowMinutes,
    comparison: rule.comparison,
    threshold: rule.threshold,
    relative: rule.relative,
    enabled: rule.enabled,
    emailRecipients: rule.emailRecipients,
  }
}

/** What a rule saved with e-mail recipients while mail is not configured answers besides itself. */
export const MAIL_WARNING =
  'E-mail is not configured (set SMTP_URL): the rule was saved and calls its webhooks, but mails nobody until it is'

/**
 * The alert rules of the store.
 * @param options.mail with outgoing mail set up (SMTP_URL): the links' URL and the mail budget of the
 *   recipients' confirmation mails; without it rules with `emailRecipients` are stored and mail nobody
 */
export function createAlertRules(
  db: MetadataDb,
  clock: Clock = systemClock,
  options: { mail?: AlertMailOptions } = {},
) {
  const siteOf = (siteId: number) =>
    db
      .selectFrom('site')
      .select(['domain', 'organization_id'])
      .where('site_id', '=', siteId)
      .executeTakeFirstOrThrow()
  const withRecipients = async (rules: AlertRule[]) => {
    const states = await recipientsOfRules(db, rules)
    return rules.map((rule) => ({ ...rule, recipients: states.get(rule.id) ?? rule.recipients }))
  }
  const audit = (
    trx: Transaction<MetadataSchema>,
    siteId: number,
    actorUserId: string,
    action: AuditAction,
    details: Record<string, unknown>,
  ) => recordSiteAudit(trx, { siteId, actorUserId, action, details }, clock)
  const find = async (siteId: number, id: string) => {
    const row = await db
      .selectFrom('alert_rule')
      .selectAll()
      .where('id', '=', id)
      .where('site_id', '=', siteId)
      .executeTakeFirst()
    if (!row) throw notFound('Alert rule not found')
    return row
  }
  const requireGoalOfSite = async (siteId: number, goalId: number | null) => {
    if (goalId === null) return
    const goal = await db
      .selectFrom('goal')
      .select('goal_id')
      .where('goal_id', '=', goalId)
      .where('site_id', '=', siteId)
      .executeTakeFirst()
    if (!goal) {
      throw badRequest('Invalid alert rule', {
        fieldErrors: { goalId: ['no such goal on this site'] },
        formErrors: [],
      })
    }
  }

  return {
    /** Whether outgoing mail is set up: without it, rules mail nobody. */
    mailConfigured: options.mail !== undefined,

    /** The warning a rule with these recipients answers when mail is not configured, else undefined. */
    mailWarning(recipients: readonly string[] | undefined): string | undefined {
      return recipients && recipients.length > 0 && !options.mail ? MAIL_WARNING : undefined
    },

    /**
     * Create a rule of the site on behalf of `userId` from a parsed body (`createAlertBody`); its
     * recipients outside the organization are mailed a link to confirm.
     * @throws 400 naming `goalId` when it names no goal of the site; 429 over the mail budget
     */
    async create(siteId: number, userId: string, rule: NewAlertRule): Promise<AlertRule> {
      await requireGoalOfSite(siteId, rule.goalId ?? null)
      const site = await siteOf(siteId)
      const row: AlertRuleTable = {
        id: crypto.randomUUID(),
        site_id: siteId,
        name: rule.name,
        metric: rule.metric,
        event_name: rule.eventName ?? null,
        goal_id: rule.goalId ?? null,
        window_minutes: rule.windowMinutes,
        comparison: rule.comparison,
        threshold: rule.threshold,
        relative: fromBool(rule.relative ?? false),
        enabled: fromBool(rule.enabled ?? true),
        state: 'ok',
        last_value: null,
        last_evaluated_at: null,
        last_triggered_at: null,
        email_recipients: JSON.stringify(rule.emailRecipients ?? []),
        crawler_category: rule.crawlerCategory ?? null,
        crawler_agent: rule.crawlerAgent ?? null,
        known_agents: null,
        created_by: userId,
        created_at: isoNow(clock),
      }
      const created = toAlertRule(row)
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('alert_rule').values(row).execute()
        await syncAlertRecipients(trx, {
          ruleId: row.id,
          ruleName: row.name,
          site,
          emails: created.emailRecipients,
          mail: options.mail,
          clock,
        })
        await audit(trx, siteId, userId, 'alert_rule.created', alertRuleAuditDetails(created))
      })
      return (await withRecipients([created]))[0] as AlertRule
    },
    async list(siteId: number): Promise<AlertRule[]> {
      const rows = await db
        .selectFrom('alert_rule')
        .selectAll()
        .where('site_id', '=', siteId)
        .orderBy('created_at')
        .execute()
      return withRecipients(rows.map((row) => toAlertRule(row)))
    },
    async get(siteId: number, id: string): Promise<AlertRule> {
      return (await withRecipients([toAlertRule(await find(siteId, id))]))[0] as AlertRule
    },
    /**
     * Change any subset of the fields on behalf of `userId`; a changed condition starts over from 'ok'.
     * Kept recipients keep their state; new ones are treated as on creation.
     * @throws 404 for an unknown rule; 400 when the result is not a valid rule; 429 over the mail budget
     */
    async update(siteId: number, userId: string, id: string, change: UpdateAlertBody): Promise<AlertRule> {
      const current = toAlertRule(await find(siteId, id))
      const next = { ...current, ...change }
      const problem = (field: string, message: string) =>
        badRequest('Invalid alert rule', { fieldErrors: { [field]: [message] }, formErrors: [] })
      const invalid = alertRuleProblem(next)
      if (invalid !== null) throw problem(invalid.field, invalid.message)
      await requireGoalOfSite(siteId, next.goalId)
      const site = await siteOf(siteId)
      const updated = await db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('alert_rule')
          .set({
            name: next.name,
            metric: next.metric,
            event_name: next.eventName,
            goal_id: next.goalId,
            window_minutes: next.windowMinutes,
            comparison: next.comparison,
            threshold: next.threshold,
            relative: fromBool(next.relative),
            enabled: fromBool(next.enabled),
            email_recipients: JSON.stringify(next.emailRecipients),
            crawler_category: next.crawlerCategory,
            crawler_agent: next.crawlerAgent,
            // Other agents to watch: the next evaluation takes the site's agents as seen again.
            ...(next.metric !== current.metric || next.crawlerCategory !== current.crawlerCategory
              ? { known_agents: null }
              : {}),
            state: 'ok',
          })
          .where('id', '=', id)
          .where('site_id', '=', siteId)
          .returningAll()
          .executeTakeFirst()
        if (!row) throw notFound('Alert rule not found')
        const saved = toAlertRule(row)
        await syncAlertRecipients(trx, {
          ruleId: saved.id,
          ruleName: saved.name,
          site,
          emails: saved.emailRecipients,
          mail: options.mail,
          clock,
        })
        await audit(trx, siteId, userId, 'alert_rule.updated', {
          ...alertRuleAuditDetails(saved),
          changed: Object.keys(change),
        })
        return saved
      })
      return (await withRecipients([updated]))[0] as AlertRule
    },
    /** Delete a rule on behalf of `userId`, irreversibly. @throws 404 for an unknown rule */
    async remove(siteId: number, userId: string, id: string): Promise<void> {
      const rule = toAlertRule(await find(siteId, id))
      await db.transaction().execute(async (trx) => {
        const result = await trx
          .deleteFrom('alert_rule')
          .where('id', '=', id)
          .where('site_id', '=', siteId)
          .executeTakeFirst()
        if (Number(result.numDeletedRows) === 0) throw notFound('Alert rule not found')
        await audit(trx, siteId, userId, 'alert_rule.deleted', {
          alertRuleId: rule.id,
          name: rule.name,
          metric: rule.metric,
        })
      })
    },
  }
}

export type AlertRules = ReturnType<typeof createAlertRules>
