import { readFileSync } from 'node:fs'
import { isbot } from 'isbot'
import { isPageRequest, readAccessLog } from '../../packages/server/src/demo/access-log.js'

/** One pre-serialised `POST /api/track` request for the load generator. */
export interface TrackRequest {
  /**
   * JSON body: `site_id`, `type`, `hostname`, `pathname`, `querystring`, `referrer`, `user_agent`,
   * `ip_address`.
   */
  body: string
  /** The logged browser's user agent, also sent as the `User-Agent` header. */
  userAgent: string
  /**
   * The logged visitor's address, also sent as `X-Forwarded-For` (a keyless request's body cannot
   * name it: the server takes it from a proxy it trusts, TRUST_PROXY).
   */
  ip: string
}

/**
 * Builds distinct, realistic tracking requests from an access log: the page requests
 * (`isPageRequest`) of human visitors (isbot says not a bot, user agent not empty), deduplicated on
 * path + query + referrer + user agent + IP, then `count` of them picked evenly across the log so
 * that paths, browsers and IPs vary.
 *
 * @param logFile path of a combined-format access log.
 * @param opts.siteId sent as `site_id` (string); opts.domain as `hostname`; opts.count default 200;
 *   opts.properties: each body also carries `properties` (three keys: a string, a number, a boolean,
 *   varying per body), the worst case for what the events store computes from them on insert.
 * @returns up to `count` requests (fewer only if the log has fewer distinct human pageviews).
 * @throws if the file cannot be read.
 */
export function buildTrackBodies(
  logFile: string,
  opts: { siteId: number; domain: string; count?: number; properties?: boolean },
): TrackRequest[] {
  const count = opts.count ?? 200
  const seen = new Set<string>()
  const candidates: TrackRequest[] = []
  for (const line of readAccessLog(readFileSync(logFile, 'utf8'))) {
    if (!isPageRequest(line) || line.userAgent === '' || isbot(line.userAgent)) continue
    const key = [line.path, line.querystring, line.referrer, line.userAgent, line.ip].join('\u0000')
    if (seen.has(key)) continue
    seen.add(key)
    const body = JSON.stringify({
      site_id: String(opts.siteId),
      type: 'pageview',
      hostname: opts.domain,
      pathname: line.path,
      querystring: line.querystring,
      referrer: line.referrer,
      user_agent: line.userAgent,
      ip_address: line.ip,
      ...(opts.properties
        ? {
            properties: JSON.stringify({
              plan: candidates.length % 3 === 0 ? 'pro' : 'free',
              seats: (candidates.length % 5) + 1,
              trial: candidates.length % 2 === 0,
            }),
          }
        : {}),
    })
    candidates.push({ body, userAgent: line.userAgent, ip: line.ip })
  }
  if (candidates.length <= count) return candidates
  const step = candidates.length / count
  return Array.from({ length: count }, (_, i) => candidates[Math.floor(i * step)]).filter(
    (request): request is TrackRequest => request !== undefined,
  )
}
