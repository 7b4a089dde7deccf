/**
 * 017: the figures of `heatmap_click` events (one per click the tracker's heatmap chunk records) as
 * columns, so the heatmap of a page reads small columns instead of parsing `properties` per click:
 * - `click_selector`: the clicked element's selector path;
 * - `click_x`, `click_y`: the position inside the element's box in thousandths (0-1000) from its left
 *   and top edges (the query bins them);
 * - `click_viewport`: the viewport's width class (`desktop`, `tablet`, `mobile`);
 * - `click_flags`: 1 for a rage click, 2 for a dead click (both: 3).
 * '' and 0 on every other type.
 *
 * MATERIALIZED from `properties` (where ingest writes them, `ingest/to-event-row.ts`), as the engagement
 * columns are (migration 015): clicks are events like the others, so the site's limits, export and
 * import, a visitor's erasure and export, and retention cover them with no new table or wire column.
 * Stored events hold no heatmap clicks, so there is nothing to backfill.
 */
const isClick = "type = 'heatmap_click'"
const thousandths = (key: string) =>
  `UInt16 MATERIALIZED if(${isClick}, toUInt16(round(least(1, greatest(0, JSONExtractFloat(properties, '${key}'))) * 1000)), 0)`

export const HEATMAP_CLICK_COLUMNS = {
  click_selector: `String MATERIALIZED if(${isClick}, JSONExtractString(properties, 'selector'), '')`,
  click_x: thousandths('x'),
  click_y: thousandths('y'),
  click_viewport: `LowCardinality(String) MATERIALIZED if(${isClick}, JSONExtractString(properties, 'viewport'), '')`,
  click_flags: `UInt8 MATERIALIZED if(${isClick}, toUInt8(bitOr(if(JSONExtractUInt(properties, 'rage') = 1, 1, 0), if(JSONExtractUInt(properties, 'dead') = 1, 2, 0))), 0)`,
} as const

/** Migration 017: the five materialized columns. */
export const heatmapClickColumns = {
  name: '017-heatmap-click-columns',
  statements: Object.entries(HEATMAP_CLICK_COLUMNS).map(
    ([column, definition]) => `ALTER TABLE events ADD COLUMN IF NOT EXISTS ${column} ${definition}`,
  ),
} as const
