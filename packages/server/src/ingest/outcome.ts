/**
 * What the pipeline decides for one tracking request: accepted, or one reason of a closed union,
 * each with the HTTP status and body the endpoint answers: `{success:false, error, details?}` for
 * failures (details only for an invalid payload), 200 `{success:true, tracked:false, reason}` for
 * exclusions.
 */
import type { ApiKeyScope } from '../auth/key-scope.js'
import { errorBody } from '../shared/errors.js'

export type RejectReason =
  | { kind: 'invalid_payload'; details: { fieldErrors: Record<string, string[]>; formErrors: string[] } }
  | { kind: 'site_not_found' }
  | { kind: 'invalid_api_key' }
  | { kind: 'access_denied' }
  | { kind: 'key_scope'; scope: ApiKeyScope }
  | { kind: 'domain_mismatch'; host: string }
  | { kind: 'bot'; bot: 'empty_user_agent' | 'headless_browser' | 'crawler' }
  | { kind: 'excluded_ip' }
  | { kind: 'excluded_country'; country: string }
  | { kind: 'over_quota' }
  | {
      kind: 'type_disabled'
      switch:
        | 'trackOutbound'
        | 'trackErrors'
        | 'webVitals'
        | 'trackButtonClicks'
        | 'trackCopy'
        | 'trackFormInteractions'
        | 'heatmaps'
    }
  | { kind: 'store_unavailable' }
  | { kind: 'repeated_event' }
  | { kind: 'no_session' }

export type StageResult = { ok: true } | { ok: false; reason: RejectReason }

export const ok: StageResult = { ok: true }
export const reject = (reason: RejectReason): StageResult => ({ ok: false, reason })

/** The HTTP answer for a reason; exclusions answer 200 with `tracked:false` (nothing is recorded). */
export function toResponse(reason: RejectReason): { status: number; body: Record<string, unknown> } {
  switch (reason.kind) {
    case 'invalid_payload':
      return { status: 400, body: errorBody('Invalid payload', reason.details) }
    case 'site_not_found':
      return { status: 404, body: errorBody('Site not found') }
    case 'invalid_api_key':
      return { status: 401, body: errorBody('Invalid API key') }
    case 'access_denied':
      return { status: 403, body: errorBody('Access denied') }
    case 'key_scope':
      return {
        status: 403,
        body: errorBody(`This API key's scope (${reason.scope}) does not allow sending events`),
      }
    case 'domain_mismatch':
      return { status: 403, body: errorBody('Domain not allowed for this site') }
    case 'bot':
      return { status: 403, body: errorBody('Bot detected') }
    case 'excluded_ip':
      return { status: 200, body: { success: true, tracked: false, reason: 'excluded_ip' } }
    case 'excluded_country':
      return { status: 200, body: { success: true, tracked: false, reason: 'excluded_country' } }
    case 'type_disabled':
      return {
        status: 200,
        body: { success: true, tracked: false, reason: `${reason.switch} is off for this site` },
      }
    case 'over_quota':
      return { status: 403, body: errorBody('Site is over its monthly pageview limit') }
    case 'store_unavailable':
      return { status: 503, body: errorBody('Events store unavailable, try again') }
    case 'repeated_event':
      return { status: 200, body: { success: true } }
    case 'no_session':
      return { status: 200, body: { success: true, tracked: false, reason: 'no_session' } }
  }
}

/** The counter name of a reason, e.g. 'bot:crawler', 'domain_mismatch'. */
export const reasonKey = (reason: RejectReason): string =>
  reason.kind === 'bot'
    ? `bot:${reason.bot}`
    : reason.kind === 'type_disabled'
      ? `disabled:${reason.switch}`
      : reason.kind
