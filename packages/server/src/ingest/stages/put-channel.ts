import { createTtlCache } from '../../shared/ttl-cache.js'
import type { Draft } from '../draft.js'
import { parseUtm, toChannel, type UtmParameters } from '../enrich/channel.js'
import { ok, type StageResult } from '../outcome.js'

/**
 * Referrer and UTM parameters to a channel (Direct, Organic Search, Paid Search, ...), plus the UTM
 * columns and the referrer's domain. The querystring is kept only when the site has `trackUrlParams`.
 */
export function putChannel(draft: Draft): StageResult {
  const querystring = (draft.payload.querystring ?? '').replace(/^\?/, '')
  const referrer = draft.payload.referrer ?? ''
  const key = `${referrer}\n${draft.row.hostname}\n${querystring}`
  let source = recent.get(key)
  if (source === undefined) {
    source = {
      ...parseUtm(querystring),
      channel: toChannel({ referrer, hostname: draft.row.hostname, querystring }),
      referrer_domain: referrerDomain(referrer),
    }
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

function referrerDomain(referrer: string): string {
  if (referrer === '') return ''
  try {
    const host = new URL(referrer).hostname.toLowerCase()
    return host.startsWith('www.') ? host.slice(4) : host
  } catch {
    return ''
  }
}
