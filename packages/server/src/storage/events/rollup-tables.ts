/**
 * Every rollup table of the events store and how to refill them, from their definitions as they are
 * today (`rollup-schema/`), across the migrations that made them (`migrations/003-rollups.ts`: `session_hours`, `event_hours`;
 * `migrations/004-session-dimension-hours.ts`: `session_dimension_hours`;
 * `migrations/005-session-summaries.ts`: `session_summaries`, `session_changes`;
 * `migrations/006-page-days.ts`: `page_days`, `page_months`;
 * `migrations/007-referrer-domain-days.ts`: `referrer_domain_days`; `migrations/008-event-order.ts`:
 * `session_hours` and `session_summaries` anew; `migrations/010-session-page-times.ts`:
 * `session_page_times`; `migrations/011-pathname-months.ts`: `pathname_months`), for the chores that must reach all of
 * them: deleting a site's rows, retention, benchmarks that merge parts.
 */
import { EVENT_HOURS, eventHoursInsert } from './rollup-schema/event-hours.js'
import { PAGE_ROLLUP_TABLES } from './rollup-schema/page-days.js'
import { PATHNAME_MONTHS } from './rollup-schema/pathname-months.js'
import { REFERRER_DOMAIN_DAYS } from './rollup-schema/referrer-domain-days.js'
import {
  SESSION_DIMENSION_HOURS,
  sessionDimensionHoursInsert,
} from './rollup-schema/session-dimension-hours.js'
import { SESSION_HOURS, sessionHoursInsert } from './rollup-schema/session-hours.js'

/** The hourly rollup tables' names: the ones `rollupInserts` fills from events. */
export const ROLLUP_TABLES = [SESSION_HOURS, EVENT_HOURS, SESSION_DIMENSION_HOURS] as const

/**
 * The pages breakdown's day and month rollups and the months' seals: `page_days` follows `event_hours`
 * through a chained view (an insert into `event_hours`, such as `rollupInserts`', reaches it too);
 * `page_months` is written by `seal-page-months.ts`. The referrer domains by day and the pathnames by
 * month, which the session breakdowns look their hashes up in: views on `events` and on `page_days`.
 */
export { PAGE_ROLLUP_TABLES, PATHNAME_MONTHS, REFERRER_DOMAIN_DAYS }

/** The tables of folded sessions (`fold-sessions.ts`), which follow `session_hours` (and the folded sessions' events). */
export const SESSION_FOLD_TABLES = ['session_summaries', 'session_changes', 'session_page_times'] as const

/** Every rollup table above: what deleting a site, merging parts or sizing the rollups must reach. */
export const EVERY_ROLLUP_TABLE = [
  ...ROLLUP_TABLES,
  ...PAGE_ROLLUP_TABLES,
  ...SESSION_FOLD_TABLES,
  REFERRER_DOMAIN_DAYS,
  PATHNAME_MONTHS,
] as const

/**
 * `INSERT ... SELECT` statements that roll up the events matching `where` (a condition on `events`)
 * into every rollup table. The caller makes sure those events are in no rollup row yet.
 */
export function rollupInserts(where: string): string[] {
  return [sessionHoursInsert(where), eventHoursInsert(where), sessionDimensionHoursInsert(where)]
}
