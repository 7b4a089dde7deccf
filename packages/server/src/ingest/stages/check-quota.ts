import type { IngestDeps } from '../deps.js'
import type { Draft } from '../draft.js'
import { ok, reject, type StageResult } from '../outcome.js'

/**
 * Monthly pageview limit (per site; none by default): once a site has its limit of pageviews in the current UTC
 * month, tracking fails with 403 until the month ends. Sites without a limit cost nothing here.
 */
export async function checkQuota(draft: Draft, deps: IngestDeps): Promise<StageResult> {
  const limit = draft.site.monthlyPageviewLimit
  if (limit === null) return ok
  return (await deps.quota.isOver(draft.site.siteId, limit, draft.now)) ? reject({ kind: 'over_quota' }) : ok
}
