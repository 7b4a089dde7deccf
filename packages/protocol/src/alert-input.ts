/**
 * The bodies that create and change an alert rule, with the messages a 400 names the field by. Only
 * the shape is checked here; that a `goalId` names a goal of the site is the server's check.
 */
import { z } from 'zod'
import { emailRecipientList } from './email-report-input.js'
import { alertMetrics } from './enums.js'
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
}

/**
 * A new alert rule: `relative` defaults to false, `enabled` to true, `emailRecipients` to none;
 * `eventName` only with the `custom_events` metric, `goalId` with `goal_conversions` and only there.
 */
export const createAlertBody = z
  .object({
    ...fields,
    eventName: fields.eventName.optional(),
    goalId: fields.goalId.optional(),
    relative: fields.relative.default(false),
    enabled: fields.enabled.default(true),
    emailRecipients: fields.emailRecipients.default([]),
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

/** Any subset of an alert rule's fields; unknown fields are refused. */
export const updateAlertBody = z.object(fields).partial().strict()

/** A parsed new alert rule. */
export type CreateAlertBody = z.output<typeof createAlertBody>
/** A parsed change of an alert rule. */
export type UpdateAlertBody = z.output<typeof updateAlertBody>
