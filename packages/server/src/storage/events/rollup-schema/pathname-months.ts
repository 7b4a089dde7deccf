/**
 * `pathname_months` as it is today (migration 011): the pathnames of each site's pageviews per UTC
 * month, no counts, kept from `page_days`. Migration 011 keeps a frozen copy.
 */

/** The table's name. */
export const PATHNAME_MONTHS = 'pathname_months'

/** The `INSERT ... SELECT` listing the pathnames of the `page_days` rows matching `where`. */
export const pathnameMonthsInsert = (where: string): string =>
  `INSERT INTO ${PATHNAME_MONTHS} SELECT site_id, toDateTime(toStartOfMonth(day), 'UTC') AS month, pathname
FROM page_days WHERE ${where} GROUP BY site_id, month, pathname`
