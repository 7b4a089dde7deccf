/**
 * What a route with a site in its path does once its access step has passed, so that one tenant's
 * reads cannot slow another's: a read sent with the session cookie is counted in the budget of the
 * site's organization (`read-budget.ts`), and every events-store query the route then runs queues
 * among that organization's (`query/tenant-read-queue.ts`), whoever the reader is (member, API key,
 * private link, anonymous on a public site). `route()` calls it; `buildApp` decorates the server with
 * it (`app.tenantReads`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { TenantReadQueue } from '../query/tenant-read-queue.js'
import { createTtlCache } from '../shared/ttl-cache.js'
import { findSite, parseSiteId } from '../sites/sites.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { ReadBudget } from './read-budget.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** Budget and queue of a site route's reads (`http/tenant-reads.ts`); absent outside `buildApp`. */
    tenantReads?: TenantReads
  }
}

export interface TenantReads {
  /**
   * Run `work` (the rest of a route whose access step granted site `siteId`) as a read of the site's
   * organization. A site id that names no site runs `work` as it is.
   * @returns what `work` returns
   * @throws AppError 429 with `Retry-After` when the organization's cookie budget is spent, or (from
   *   `work`'s queries) when its queue of report queries is full or a query waited too long
   */
  run<T>(request: FastifyRequest, reply: FastifyReply, siteId: unknown, work: () => Promise<T>): Promise<T>
}

/**
 * @param db where a site's organization is looked up (cached for a minute per site: a site never
 *   changes organization)
 */
export function createTenantReads({
  db,
  budget,
  queue,
}: {
  db: MetadataDb
  budget: Pick<ReadBudget, 'organization'>
  queue: Pick<TenantReadQueue, 'runAs'>
}): TenantReads {
  const organizations = createTtlCache<number, string | null>({ ttlMs: 60_000, maxEntries: 10_000 })
  const loadOrganization = async (siteId: number) => (await findSite(db, siteId))?.organization_id ?? null
  return {
    async run(request, reply, rawSiteId, work) {
      const siteId = parseSiteId(rawSiteId)
      const organizationId = siteId === null ? null : await organizations.load(siteId, loadOrganization)
      if (organizationId === null) return work()
      await budget.organization(request, reply, organizationId)
      return queue.runAs(organizationId, work)
    },
  }
}
