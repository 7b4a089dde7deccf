/**
 * 016: `events.scroll_depth` and `events.engagement_time`, the figures of `engagement` events (one per
 * pageview each time its page is hidden or left): the deepest scroll so far in percent of the page's
 * height (0-100) and the engaged milliseconds since the pageview's previous engagement event. 0 on
 * every other type.
 *
 * MATERIALIZED from `properties` (where ingest writes them, `ingest/to-event-row.ts`), as
 * `property_map` is (migration 009): ingest, imports and exports carry engagement in `properties`
 * with no new wire column, and reports read two small numeric columns instead of parsing JSON.
 * Stored events hold no engagement events, so there is nothing to backfill: parts written before
 * compute the columns on read (0 for their types).
 */
export const ENGAGEMENT_COLUMNS = {
  scroll_depth: `UInt8 MATERIALIZED if(type = 'engagement', toUInt8(least(100, JSONExtractUInt(properties, 'scroll_depth'))), 0)`,
  engagement_time: `UInt32 MATERIALIZED if(type = 'engagement', toUInt32(least(86400000, JSONExtractUInt(properties, 'engagement_time'))), 0)`,
} as const

/** Migration 016: the two materialized columns. */
export const engagementColumns = {
  name: '015-engagement-columns',
  statements: Object.entries(ENGAGEMENT_COLUMNS).map(
    ([column, definition]) => `ALTER TABLE events ADD COLUMN IF NOT EXISTS ${column} ${definition}`,
  ),
} as const
