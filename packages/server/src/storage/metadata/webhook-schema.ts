/**
 * Row types of the webhook and alert tables (migration 004), merged into `MetadataSchema`.
 */
import type { Generated } from 'kysely'
import type { DbBool } from './schema.js'

export interface WebhookTable {
  id: string
  site_id: number
  url: string
  description: string
  /** JSON array of subscribed event types. */
  events: string
  /** HMAC-SHA256 signing secret (kept readable: signing needs it). */
  secret: string
  enabled: DbBool
  /** Why the webhook was disabled automatically; null when enabled or disabled by a person. */
  disabled_reason: string | null
  consecutive_failures: number
  /** When the current run of failed deliveries began (ISO); null after a success. */
  failing_since: string | null
  created_by: string
  created_at: string
  updated_at: string
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed'

export interface WebhookDeliveryTable {
  /** The delivery id, sent as X-Pathlight-Delivery; receivers de-duplicate on it. */
  id: string
  webhook_id: string
  site_id: number
  event_type: string
  /** The exact JSON body sent (and signed). */
  payload: string
  status: DeliveryStatus
  attempts: number
  next_attempt_at: string
  /** A worker's claim: no other worker takes the delivery before this time. */
  locked_until: string | null
  last_status_code: number | null
  last_error: string | null
  created_at: string
  delivered_at: string | null
}

export interface WebhookAttemptTable {
  seq: Generated<number>
  delivery_id: string
  attempt: number
  status_code: number | null
  /** The receiver's response body, truncated to 2,048 characters. */
  response_body: string
  error: string | null
  started_at: string
  duration_ms: number
}

export interface AlertRuleTable {
  id: string
  site_id: number
  name: string
  metric: string
  event_name: string | null
  goal_id: number | null
  window_minutes: number
  comparison: 'above' | 'below'
  threshold: number
  /** When true, the threshold is a percent change against the previous window. */
  relative: DbBool
  enabled: DbBool
  state: 'ok' | 'triggered'
  last_value: number | null
  last_evaluated_at: string | null
  last_triggered_at: string | null
  /** JSON array of e-mail addresses mailed when the rule fires (migration 014); `[]` for none. */
  email_recipients: string
  /** Crawler metrics: a crawler category or `ai` (migration 022); null for every category. */
  crawler_category: string | null
  /** `crawler_requests`: one agent's name (migration 022); null for every agent. */
  crawler_agent: string | null
  /** `crawler_new_agents`: JSON array of the agents seen on the site; null before the first evaluation. */
  known_agents: string | null
  created_by: string
  created_at: string
}

/** `pending`: waits for the address to confirm; `active`: gets the alert mails; `unsubscribed`: no more. */
export type AlertRecipientStatus = 'pending' | 'active' | 'unsubscribed'

/** An address an alert rule mails (migration 015), with its consent, as a report recipient has one. */
export interface AlertRecipientTable {
  id: string
  rule_id: string
  /** Lower case. */
  email: string
  status: AlertRecipientStatus
  /** Random, URL-safe: the confirm and unsubscribe links carry it. */
  token: string
  created_at: string
  /** When its confirmation mail was queued; null while none was (no mail configured then). */
  confirmation_sent_at: string | null
  confirmed_at: string | null
  unsubscribed_at: string | null
}

export interface WebhookSchema {
  webhook: WebhookTable
  webhook_delivery: WebhookDeliveryTable
  webhook_attempt: WebhookAttemptTable
  alert_rule: AlertRuleTable
  alert_recipient: AlertRecipientTable
}
