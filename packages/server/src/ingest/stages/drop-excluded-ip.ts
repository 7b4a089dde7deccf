import type { Draft } from '../draft.js'
import { ok, reject, type StageResult } from '../outcome.js'

/** The site's `excludedIPs` (addresses and CIDR ranges, IPv4 and IPv6): such events are not recorded. */
export function dropExcludedIp(draft: Draft): StageResult {
  return draft.site.isExcludedIp(draft.ip) ? reject({ kind: 'excluded_ip' }) : ok
}
