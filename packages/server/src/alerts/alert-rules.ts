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
 * Each write is audited on behalf of the acting user (`alert_rule.created`, `alert_rule.updated`,
 * `alert_rule.deleted`) in its transaction.
 */
import crypto from 'node:crypto'
import { alertMetrics, type AlertRule as WireAlertRule } from '@pathlight/protocol'
import type { Transaction } from 'kysely'
import { z } from 'zod'
import { type AuditAction, recordSiteAudit } from '../audit/audit-log.js'
import { badRequest, notFound } from '../shared/errors.js'
import { isNulFree, nulMessage } from '../shared/nul-free.js'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { fromBool, type MetadataSchema, toBool } from '../storage/metadata/schema.js'
import type { AlertRuleTable } from '../storage/metadata/webhook-schema.js'

export { alertMetrics }
export type AlertMetric = (typeof alertMetrics)[number]

/** An alert rule as the API returns it: the protocol's wire shape. */
export type AlertRule = WireAlertRule

const fields = {
  name: z
    .string()
    .trim()
    .min(1, 'name is required')
    .max(100, 'name must be at most 100 characters')
    .refine(isNulFree, nulMessage('name')),
  metric: z.enum(alertMetrics, { error: `must be one of ${alertMetrics.join(', ')}` }),
  eventName: z.string().trim().min(1).max(256).refine(isNulFree, nulMessage('eventName')).nullable(),
  goalId: z
    .number({ error: 'must be a goal id' })
    .int('must be a goal id')
    .positive('must be a goal id')
    .max(0x7fffffff, 'must be a goal id')
    .nullable(),
  windowMinutes: z
    .number({ error: 'must be a number of minutes' })
    .int('must be a whole number of minutes')
    .min(5, 'must be at least 5 minutes')
    .max(7 * 24 * 60, 'must be at most 7 days'),
  comparison: z.enum(['above', 'below'], { error: 'must be above or below' }),
  threshold: z.number({ error: 'must be a number' }).finite(),
  relative: z.boolean({ error: 'must be true or false' }),
  enabled: z.boolean({ error: 'must be true or false' }),
}

export const createAlertBody = z
  .object({
    ...fields,
    eventName: fields.eventName.optional(),
    goalId: fields.goalId.optional(),
    relative: fields.relative.default(false),
    enabled: fields.enabled.default(true),
  })
  .superRefine((rule, ctx) => {
    if (rule.eventName && rule.metric !== 'custom_events') {
      ctx.addIssue({
        code: 'custom',
        path: ['eventName'],
        message: 'only applies to the custom_events metric',
      })
    }
    if (rule.metric === 'goal_conversions' && !rule.goalId) {
      ctx.addIssue({
        code: 'custom',
        path: ['goalId'],
        message: 'the goal_conversions metric needs a goalId',
      })
    }
    if (rule.goalId && rule.metric !== 'goal_conversions') {
      ctx.addIssue({
        code: 'custom',
        path: ['goalId'],
        message: 'only applies to the goal_conversions metric',
      })
    }
  })
export const updateAlertBody = z.object(fields).partial().strict()

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
  }
}

export function createAlertRules(db: MetadataDb, clock: Clock = systemClock) {
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
  const invalid = (error: z.ZodError) => badRequest('Invalid alert rule', z.flattenError(error))
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
    /** Create a rule of the site on behalf of `userId`. @throws 400 naming the invalid field */
    async create(siteId: number, userId: string, input: unknown): Promise<AlertRule> {
      const parsed = createAlertBody.safeParse(input ?? {})
      if (!parsed.success) throw invalid(parsed.error)
      const rule = parsed.data
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
        relative: fromBool(rule.relative),
        enabled: fromBool(rule.enabled),
        state: 'ok',
        last_value: null,
        last_evaluated_at: null,
        last_triggered_at: null,
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
    async update(siteId: number, userId: string, id: string, input: unknown): Promise<AlertRule> {
      const parsed = updateAlertBody.safeParse(input ?? {})
      if (!parsed.success) throw invalid(parsed.error)
      const current = toAlertRule(await find(siteId, id))
      const next = { ...current, ...parsed.data }
      const problem = (field: string, message: string) =>
        badRequest('Invalid alert rule', { fieldErrors: { [field]: [message] }, formErrors: [] })
      if (next.eventName && next.metric !== 'custom_events') {
        throw problem('eventName', 'only applies to the custom_events metric')
      }
      if (next.metric === 'goal_conversions' && !next.goalId)
        throw problem('goalId', 'the goal_conversions metric needs a goalId')
      if (next.goalId && next.metric !== 'goal_conversions')
        throw problem('goalId', 'only applies to the goal_conversions metric')
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
          changed: Object.keys(parsed.data),
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
