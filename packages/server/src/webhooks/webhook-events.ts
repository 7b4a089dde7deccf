/**
 * The events a webhook can subscribe to, and the envelope every payload shares:
 * `{ id, type, createdAt, siteId, data }` where `id` identifies the fact (the same for every webhook it
 * is sent to), `createdAt` is ISO 8601 UTC with milliseconds, and `data` depends on the type:
 *
 * - `session.created`: a new session began. `data: { sessionId, userId, entryPage, referrer, channel,
 *   country, browser, deviceType }` (strings; '' when unknown).
 * - `event.tracked`: a custom event was tracked. `data: { eventName, properties (object), pathname,
 *   sessionId, userId }`.
 * - `goal.converted`: a session completed a goal for the first time. `data: { goalId, goalName, goalType,
 *   sessionId, userId, event: { type, pathname, eventName } }` (`event.type` is `engagement` for a
 *   scroll-depth goal: the engagement event that reached the depth).
 * - `alert.triggered`: an alert rule crossed its threshold. `data: { ruleId, ruleName, metric, eventName,
 *   goalId, windowMinutes, comparison ('above'|'below'), relative (bool), threshold, observed, previous }`
 *   (`observed` is the window's value, or its percent change when `relative`; `previous` the previous
 *   window's value).
 */
import { webhookEventTypes } from '@pathlight/protocol'

export { webhookEventTypes }
export type WebhookEventType = (typeof webhookEventTypes)[number]

export interface WebhookPayload<Data = Record<string, unknown>> {
  id: string
  type: WebhookEventType
  createdAt: string
  siteId: number
  data: Data
}
