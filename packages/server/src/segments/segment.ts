/**
 * A saved segment as the API answers it (the protocol's `Segment`), from its stored row.
 */
import type { Segment } from '@pathlight/protocol'
import type { Filter } from '../query/filters.js'
import type { SegmentTable } from '../storage/metadata/segment-schema.js'

export type { Segment }

/** A stored row (`segment` table) as a `Segment`; `filters` is parsed from its JSON text. */
export function toSegment(row: Omit<SegmentTable, 'segment_id'> & { segment_id: number }): Segment {
  return {
    segmentId: row.segment_id,
    siteId: row.site_id,
    name: row.name,
    filters: JSON.parse(row.filters) as Filter[],
    visibility: row.visibility,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}
