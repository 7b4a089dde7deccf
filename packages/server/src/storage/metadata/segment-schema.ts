/**
 * Row type of the saved segments (migration 011), merged into `MetadataSchema`.
 */
import type { Generated } from 'kysely'

export interface SegmentTable {
  segment_id: Generated<number>
  /** The site's numeric id; the segment goes when the site does (ON DELETE CASCADE). */
  site_id: number
  /** The creator's user id; a personal segment is theirs alone (ON DELETE CASCADE). */
  created_by: string
  name: string
  /** JSON array of `{parameter, type, value}`, as the `filters` query parameter holds them. */
  filters: string
  /** 'personal' or 'site'. */
  visibility: 'personal' | 'site'
  created_at: string
  updated_at: string
}

export interface SegmentSchema {
  segment: SegmentTable
}
