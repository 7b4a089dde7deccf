import type { Draft } from '../draft.js'
import { parseUtm, toChannel } from '../enrich/channel.js'
import { ok, type StageResult } from '../outcome.js'

/**
 * Referrer and UTM parameters to a channel (Direct, Organic Search, Paid Search, ...), plus the UTM
 * columns and the referrer's domain. The querystring is kept only when the site has `trackUrlParams`.
 */
export function putChannel(draft: Draft): StageResult {
  const querystring = (draft.payload.querystring ?? '').replace(/^\?/, '')
  const referrer = draft.payload.referrer ?? ''
  const utm = parseUtm(querystring)
  draft.row.utm_source = utm.utm_source
  draft.row.utm_medium = utm.utm_medium
  draft.row.utm_campaign = utm.utm_campaign
  draft.row.utm_term = utm.utm_term
  draft.row.utm_content = utm.utm_content
  draft.row.channel = toChannel({ referrer, hostname: draft.row.hostname, querystring })
  draft.row.referrer_domain = referrerDomain(referrer)
  draft.row.querystring = draft.site.trackUrlParams ? querystring : ''
  return ok
}

function referrerDomain(referrer: string): string {
  if (referrer === '') return ''
  try {
    const host = new URL(referrer).hostname.toLowerCase()
    return host.startsWith('www.') ? host.slice(4) : host
  } catch {
    return ''
  }
}
