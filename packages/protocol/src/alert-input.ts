/**
 * The bodies that create and change an alert rule, with the messages a 400 names the field by. Only
 * the shape is checked here; that a `goalId` names a goal of the site is the server's check.
 */
import { z } from 'zod'
import { emailRecipientList } from './email-report-input.js'
import { alertCrawlerCategories, alertMetrics, crawlerAlertMetrics } from './enums.js'
import { isNulFree, nulMessage } from './nul-free.js'

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
  /** Addresses mailed when the rule fires, besides the site's webhooks (at most 20). */
  emailRecipients: emailRecipientList,
  /** Crawler metrics only: requests or agents of this category (`ai`: the three AI categories). */
  crawlerCategory: z
    .enum(alertCrawlerCategories, { error: `must be one of ${alertCrawlerCategories.join(', ')}` })
    .nullable(),
  /** `crawler_requests` only: requests of this agent (its name as the Crawlers page shows it). */
  crawlerAgent: z
    .string({ error: 'must be an agent name' })
    .trim()
    .min(1, 'must be an agent name')
    .max(100, 'must be at most 100 characters')
    .refine(isNulFree, nulMessage('crawlerAgent'))
    .nullable(),
}

/** A problem of a rule's fields together: the field a 400 names and what is wrong. */
export interface AlertRuleProblem {
  field: 'eventName' | 'goalId' | 'crawlerCategory' | 'crawlerAgent' | 'relative'
  message: string
}

/**
 * The rules between a rule's fields, for a new rule and for a changed one alike: `eventName` only with
 * `custom_events`, `goalId` with `goal_conversions` and only there, `crawlerCategory` only with the
 * crawler metrics, `crawlerAgent` only with `crawler_requests` and not with a `crawlerCategory`,
 * `relative` not with `crawler_new_agents` (a count of agents, not of a window).
 * @returns the first problem, or null
 */
export function alertRuleProblem(rule: {
  metric: (typeof alertMetrics)[number]
  eventName?: string | null
  goalId?: number | null
  crawlerCategory?: string | null
  crawlerAgent?: string | null
  relative?: boolean
}): AlertRuleProblem | null {
  const crawler = (crawlerAlertMetrics as readonly string[]).includes(rule.metric)
  if (rule.eventName && rule.metric !== 'custom_events')
    return { field: 'eventName', message: 'only applies to the custom_events metric' }
  if (rule.metric === 'goal_conversions' && !rule.goalId)
    return { field: 'goalId', message: 'the goal_conversions metric needs a goalId' }
  if (rule.goalId && rule.metric !== 'goal_conversions')
    return { field: 'goalId', message: 'only applies to the goal_conversions metric' }
  if (rule.crawlerCategory && !crawler)
    return { field: 'crawlerCategory', message: 'only applies to the crawler metrics' }
  if (rule.crawlerAgent && rule.metric !== 'crawler_requests')
    return { field: 'crawlerAgent', message: 'only applies to the crawler_requests metric' }
  if (rule.crawlerAgent && rule.crawlerCategory)
    return { field: 'crawlerAgent', message: 'give a crawlerCategory or a crawlerAgent, not both' }
  if (rule.relative && rule.metric === 'crawler_new_agents')
    return { field: 'relative', message: 'does not apply to the crawler_new_agents metric' }
  return null
}

/**
 * A new alert rule: `relative` defaults to false, `enabled` to true, `emailRecipients` to none; the
 * fields that belong to one metric only with it (`alertRuleProblem`).
 */
export const createAlertBody = z
  .object({
    ...fields,
    eventName: fields.eventName.optional(),
    goalId: fields.goalId.optional(),
    relative: fields.relative.default(false),
    enabled: fields.enabled.default(true),
    emailRecipients: fields.emailRecipients.default([]),
    crawlerCategory: fields.crawlerCategory.optional(),
    crawlerAgent: fields.crawlerAgent.optional(),
  })
  .superRefine((rule, ctx) => {
    const problem = alertRuleProblem(rule)
    if (problem !== null) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message })
  })

/** Any subset of an alert rule's fields; unknown fields are refused. */
export const updateAlertBody = z.object(fields).partial().strict()

/** A parsed new alert rule. */
export type CreateAlertBody = z.output<typeof createAlertBody>
/** A parsed change of an alert rule. */
export type UpdateAlertBody = z.output<typeof updateAlertBody>
