import { createTtlCache } from '../../shared/ttl-cache.js'
import type { Draft } from '../draft.js'
import { aiAssistantOf } from '../enrich/ai-assistants.js'
import { parseUtm, toChannel, type UtmParameters } from '../enrich/channel.js'
import { ok, type StageResult } from '../outcome.js'

/**
 * Referrer and UTM parameters to a channel (Direct, Organic Search, Paid Search, ...), plus the UTM
 * columns and the referrer's domain (for a visit an AI assistant sent without a referrer, the assistant's
 * domain, so the referrers report names it as the source). The querystring is kept only when the site has `trackUrlParams`.
 */
export function putChannel(draft: Draft): StageResult {
  const querystring = (draft.payload.querystring ?? '').replace(/^\?/, '')
  const referrer = draft.payload.referrer ?? ''
  const key = `${referrer}\n${draft.row.hostname}\n${querystring}`
  let source = recent.get(key)
  if (source === undefined) {
    const utm = parseUtm(querystring)
    const channel = toChannel({ referrer, hostname: draft.row.hostname, querystring })
    source = { ...utm, channel, referrer_domain: sourceDomain(referrer, channel, utm.utm_source) }
    recent.set(key, source)
  }
  draft.row.utm_source = source.utm_source
  draft.row.utm_medium = source.utm_medium
  draft.row.utm_campaign = source.utm_campaign
  draft.row.utm_term = source.utm_term
  draft.row.utm_content = source.utm_content
  draft.row.channel = source.channel
  draft.row.referrer_domain = source.referrer_domain
  draft.row.querystring = draft.site.trackUrlParams ? querystring : ''
  return ok
}

/** Traffic sources repeat (the same referrer and campaign links): remember recent answers. */
const recent = createTtlCache<string, UtmParameters & { channel: string; referrer_domain: string }>({
  ttlMs: Number.POSITIVE_INFINITY,
  maxEntries: 5000,
  lru: true,
})

/**
 * The source a visit is listed under: the referrer's domain, or for an AI assistant's link that came
 * without a referrer (only its `utm_source`), the assistant's domain ('chatgpt.com').
 */
export function sourceDomain(referrer: string, channel: string, utmSource: string): string {
  const domain = referrerDomain(referrer)
  if (domain !== '' || channel !== 'AI Assistants') return domain
  return aiAssistantOf('', utmSource.toLowerCase())?.domain ?? ''
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
