/**
 * The answers of the alert rule routes besides the rule itself (`contracts/alerts.ts`): the list with
 * whether mail is configured, a saved rule with its warnings, and what the token of an alert mail's
 * confirm or unsubscribe link names. Zod schemas registered as OpenAPI components.
 */
import { z } from 'zod'
import { emailReportRecipientStatuses } from './enums.js'
import { component, doc } from './openapi-registry.js'
import { alertRule } from './response-schemas.js'
import { count } from './schema-fields.js'

/**
 * The answer of `GET /api/sites/{siteId}/alerts`: the whole list, and whether this instance can send
 * mail (the dashboard says so next to the recipients field instead of after a save).
 */
export const alertList = z.object({
  success: z.literal(true),
  data: z.array(alertRule),
  meta: z.object({
    total: count('Rules in the list'),
    mailConfigured: doc(z.boolean(), 'Whether SMTP_URL is set: without it alert rules mail nobody'),
  }),
})

/** The answer of creating or changing a rule: the rule, and what of it cannot work as asked. */
export const alertSaved = z.object({
  success: z.literal(true),
  data: alertRule,
  warnings: doc(
    z.array(z.string()).optional(),
    'What the rule cannot do as saved, e.g. e-mail recipients while e-mail is not configured',
  ),
})

/** What the token of an alert mail's confirm or unsubscribe link names, for the page the link opens. */
export const alertSubscription = component(
  'AlertSubscription',
  z.object({
    email: z.string(),
    siteDomain: z.string(),
    ruleName: z.string(),
    status: z.enum(emailReportRecipientStatuses),
  }),
  'A recipient of an alert rule, as its link names it.',
)

export type AlertSubscription = z.infer<typeof alertSubscription>
