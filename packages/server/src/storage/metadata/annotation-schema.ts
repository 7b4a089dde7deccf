/**
 * Row type of the annotations (migration 012), merged into `MetadataSchema`.
 */
import type { Generated } from 'kysely'

export interface AnnotationTable {
  annotation_id: Generated<number>
  /** The site's numeric id; the annotation goes when the site does (ON DELETE CASCADE). */
  site_id: number
  /** The calendar day, YYYY-MM-DD. */
  date: string
  /** 1-500 characters. */
  text: string
  created_at: string
  updated_at: string
}

export interface AnnotationSchema {
  annotation: AnnotationTable
}
