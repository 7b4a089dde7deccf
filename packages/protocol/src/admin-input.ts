/** The inputs of the operator's routes (instance owner only): a site's limits, a site to count. */
import { z } from 'zod'
import { integerParam } from './analytics-query.js'
import { doc } from './openapi-registry.js'

/** The largest monthly pageview limit the metadata store's integer column holds. */
export const MAX_MONTHLY_PAGEVIEW_LIMIT = 2_147_483_647

/** `PUT /api/admin/sites/{siteId}/limits`: `{monthlyPageviewLimit}`, a positive integer or null. */
export const limitsBody = z.object({
  monthlyPageviewLimit: doc(
    z
      .number()
      .int('must be an integer')
      .min(1, 'must be positive')
      .max(MAX_MONTHLY_PAGEVIEW_LIMIT, `must be at most ${MAX_MONTHLY_PAGEVIEW_LIMIT}`),
    'Pageviews per month; null for unlimited',
  ).nullable(),
})

/** `GET /api/admin/events-count`: the site to count, `site_id`. */
export const eventsCountQuery = z.object({
  site_id: doc(integerParam('site_id', 1, 0x7fffffff), 'The numeric site id'),
})

/** A parsed limits body. */
export type LimitsBody = z.output<typeof limitsBody>
