/**
 * Import of Plausible's CSV export (`POST /api/sites/{siteId}/import?format=plausible`): the ZIP's
 * tables (`plausible-export.ts`) replace the site's imported daily totals (`query/imported-totals.ts`)
 * as a whole; a bad row is rejected (its file, line and column named) and never stops the others. The
 * import is recorded in the audit trail (`events.imported`, source `plausible`).
 */
import { recordAudit } from '../audit/audit-log.js'
import { replaceImportedDays } from '../query/imported-totals.js'
import type { SiteRow } from '../sites/site.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { type ImportResult, MAX_REJECTED_LISTED } from './import-events.js'
import { type ImportedDay, plausibleFileEntries, plausibleFiles } from './plausible-export.js'

export interface PlausibleImportDeps {
  events: EventsStore
  db: MetadataDb
  clock: () => number
}

/**
 * @param zip the export's bytes
 * @returns `imported`: CSV rows kept; `rejected`: bad rows (line numbers within their file)
 * @throws AppError 400 when the ZIP or a file's header is unusable (nothing replaced); the events
 *   store's error when an insert fails
 */
export async function importPlausible(
  deps: PlausibleImportDeps,
  site: SiteRow,
  zip: Uint8Array,
  actorUserId: string,
): Promise<ImportResult> {
  const files = plausibleFiles(zip)
  const result: ImportResult = { imported: 0, dropped: {}, rejectedCount: 0, rejected: [] }
  // Every file is read (headers checked, rows parsed) before the site's rows are replaced, so that a
  // refused file leaves the earlier import as it was.
  const batches: ImportedDay[][] = []
  for (const file of files) {
    for await (const entry of plausibleFileEntries(file)) {
      if ('error' in entry) {
        result.rejectedCount++
        if (result.rejected.length < MAX_REJECTED_LISTED) {
          result.rejected.push({ line: entry.line, error: entry.error })
        }
        continue
      }
      result.imported++
      batches.push(entry.rows)
    }
  }
  await replaceImportedDays(deps.events, site.site_id, batches)
  await recordAudit(
    deps.db,
    {
      organizationId: site.organization_id,
      siteId: site.site_id,
      actorUserId,
      action: 'events.imported',
      details: { source: 'plausible', imported: result.imported, rejectedCount: result.rejectedCount },
    },
    deps.clock,
  )
  return result
}
