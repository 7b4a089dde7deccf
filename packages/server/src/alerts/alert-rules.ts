/**
 * Alert rules of a site: a metric over a trailing window compared with a threshold, or, with
 * `relative`, the metric's percent change against the window before it.
 *
 * Metrics (counted over events whose timestamp is in (now - window, now]):
 * - `pageviews`: pageview events; `sessions`: distinct sessions with any event; `visitors`: distinct
 *   user ids with any event; `custom_events`: custom events (only those named `eventName` when set);
 *   `errors`: JavaScript error events; `goal_conversions`: sessions with an event completing the goal
 *   `goalId` in the window.
 *
 * `emailRecipients` are mailed when the rule fires (`evaluate-alerts.ts`), besides the site's webhooks.
 *
 * Each write is audited on behalf of the acting user (`alert_rule.created`, `alert_rule.updated`,
 * `alert_rule.deleted`) in its transaction.
 */
import crypto from 'node:crypto'
import {
  alertMetrics,
  type CreateAlertBody,
  createAlertBody,
  type UpdateAlertBody,
  updateAlertBody,
  type AlertRule as WireAlertRule,
} from '@pathlight/protocol'
import type { Transaction } from 'kysely'
import { type AuditAction, recordSiteAudit } from '../audit/audit-log.js'
import { mailUnavailable } from '../mail/mail-settings.js'
import { badRequest, notFound } from '../shared/errors.js'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { fromBool, type MetadataSchema, toBool } from '../storage/metadata/schema.js'
import type { AlertRuleTable } from '../storage/metadata/webhook-schema.js'

export { alertMetrics }
export type AlertMetric = (typeof alertMetrics)[number]

/** An alert rule as the API returns it: the protocol's wire shape. */
export type AlertRule = WireAlertRule

export { createAlertBody, updateAlertBody }

/** A parsed new rule; `relative` and `enabled` default as in `createAlertBody` when left out. */
export type NewAlertRule = Omit<CreateAlertBody, 'relative' | 'enabled' | 'emailRecipients'> &
  Partial<Pick<CreateAlertBody, 'relative' | 'enabled' | 'emailRecipients'>>

export function toAlertRule(row: AlertRuleTable): AlertRule {
  return {
    id: row.id,
    siteId: Number(row.site_id),
    name: row.name,
    metric: row.metric as AlertMetric,
    eventName: row.event_name,
    goalId: row.goal_id === null ? null : Number(row.goal_id),
    windowMinutes: Number(row.window_minutes),
    comparison: row.comparison,
    threshold: Number(row.threshold),
    relative: toBool(row.relative),
    enabled: toBool(row.enabled),
    emailRecipients: JSON.parse(row.email_recipients) as string[],
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
    windowMinutes: rule.windowMinutes,
    comparison: rule.comparison,
    threshold: rule.threshold,
    relative: rule.relative,
    enabled: rule.enabled,
    emailRecipients: rule.emailRecipients,
  }
}

/**
 * The alert rules of the store.
 * @param options.mailConfigured whether outgoing mail is set up (SMTP_URL): without it a rule naming
 *   `emailRecipients` is refused (503, `mailUnavailable`) rather than stored to mail nobody
 */
export function createAlertRules(
  db: MetadataDb,
  clock: Clock = systemClock,
  options: { mailConfigured?: boolean } = {},
) {
  const requireMailFor = (recipients: readonly string[] | undefined) => {
    if (recipients && recipients.length > 0 && !options.mailConfigured) throw mailUnavailable()
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
    /**
     * Create a rule of the site on behalf of `userId` from a parsed body (`createAlertBody`).
     * @throws 400 naming `goalId` when it names no goal of the site
     */
    async create(siteId: number, userId: string, rule: NewAlertRule): Promise<AlertRule> {
      requireMailFor(rule.emailRecipients)
      await requireGoalOfSite(siteId, rule.goalId ?? null)
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
        created_by: userId,
        created_at: isoNow(clock),
      }
      const created = toAlertRule(row)
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('alert_rule').values(row).execute()
        await audit(trx, siteId, userId, 'alert_rule.created', alertRuleAuditDetails(created))
      })
      return created
    },
    async list(siteId: number): Promise<AlertRule[]> {
      const rows = await db
        .selectFrom('alert_rule')
        .selectAll()
        .where('site_id', '=', siteId)
        .orderBy('created_at')
        .execute()
      return rows.map(toAlertRule)
    },
    async get(siteId: number, id: string): Promise<AlertRule> {
      return toAlertRule(await find(siteId, id))
    },
    /**
     * Change any subset of the fields on behalf of `userId`; a changed condition starts over from 'ok'.
     * @throws 404 for an unknown rule; 400 when the result is not a valid rule
     */
    async update(siteId: number, userId: string, id: string, change: UpdateAlertBody): Promise<AlertRule> {
      const current = toAlertRule(await find(siteId, id))
      const next = { ...current, ...change }
      const problem = (field: string, message: string) =>
        badRequest('Invalid alert rule', { fieldErrors: { [field]: [message] }, formErrors: [] })
      if (next.eventName && next.metric !== 'custom_events') {
        throw problem('eventName', 'only applies to the custom_events metric')
      }
      if (next.metric === 'goal_conversions' && !next.goalId)
        throw problem('goalId', 'the goal_conversions metric needs a goalId')
      if (next.goalId && next.metric !== 'goal_conversions')
        throw problem('goalId', 'only applies to the goal_conversions metric')
      requireMailFor(change.emailRecipients)
      await requireGoalOfSite(siteId, next.goalId)
      return db.transaction().execute(async (trx) => {
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
            state: 'ok',
          })
          .where('id', '=', id)
          .where('site_id', '=', siteId)
          .returningAll()
          .executeTakeFirst()
        if (!row) throw notFound('Alert rule not found')
        const updated = toAlertRule(row)
        await audit(trx, siteId, userId, 'alert_rule.updated', {
          ...alertRuleAuditDetails(updated),
          changed: Object.keys(change),
        })
        return updated
      })
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
