/**
 * The events store's migrations, in order, shared by chDB and ClickHouse (one SQL dialect).
 * `migrateEvents` records applied versions in `pathlight_migrations`; never edit a released one.
 */
import type { EventsStore } from '../events-store.js'
import { eventsTable } from './001-events.js'
import { replayTable } from './002-replay.js'
import { rollupTables } from './003-rollups.js'
import { sessionDimensionHoursTable } from './004-session-dimension-hours.js'
import { sessionSummariesTables } from './005-session-summaries.js'
import { pageDaysTable } from './006-page-days.js'
import { referrerDomainDaysTable } from './007-referrer-domain-days.js'
import { eventOrderTables } from './008-event-order.js'
import { eventPropertiesColumn } from './009-event-properties.js'
import { sessionPageTimesTable } from './010-session-page-times.js'
import { pathnameMonthsTable } from './011-pathname-months.js'
import { replayJsonBytesColumn } from './012-replay-json-bytes.js'
import { propertyMapCanonical } from './013-property-map-canonical.js'
import { aiTrafficTables } from './014-ai-traffic.js'
import { engagementColumns } from './015-engagement-columns.js'
import { importedDaysTable } from './016-imported-days.js'
import { heatmapClickColumns } from './017-heatmap-click-columns.js'
import { sessionFirstVisitColumns } from './018-session-first-visit.js'

export interface EventsMigration {
  name: string
  statements: readonly string[]
  /** Runs after the statements (e.g. a backfill of existing rows); the migration is recorded after it. */
  backfill?: (store: EventsStore) => Promise<void>
}

export const eventsMigrations: readonly EventsMigration[] = [
  eventsTable,
  replayTable,
  rollupTables,
  sessionDimensionHoursTable,
  sessionSummariesTables,
  pageDaysTable,
  referrerDomainDaysTable,
  eventOrderTables,
  eventPropertiesColumn,
  sessionPageTimesTable,
  pathnameMonthsTable,
  replayJsonBytesColumn,
  propertyMapCanonical,
  aiTrafficTables,
  engagementColumns,
  importedDaysTable,
  heatmapClickColumns,
  sessionFirstVisitColumns,
]

/** Apply every migration not yet recorded, in order. @throws naming the failing migration */
export async function migrateEvents(store: EventsStore): Promise<void> {
  await store.command(
    `CREATE TABLE IF NOT EXISTS pathlight_migrations (name String, applied_at DateTime64(3, 'UTC'))
     ENGINE = MergeTree ORDER BY name`,
  )
  const applied = new Set(
    (await store.query<{ name: string }>('SELECT name FROM pathlight_migrations')).map((r) => r.name),
  )
  for (const migration of eventsMigrations) {
    if (applied.has(migration.name)) continue
    try {
      for (const statement of migration.statements) await store.command(statement)
      await migration.backfill?.(store)
      await store.command(
        'INSERT INTO pathlight_migrations (name, applied_at) VALUES ({name:String}, now64(3))',
        { name: migration.name },
      )
    } catch (error) {
      throw new Error(`Events migration ${migration.name} failed: ${String(error)}`)
    }
  }
}
