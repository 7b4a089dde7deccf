/**
 * `referrer_domain_days` as it is today (migration 007): the referrer domains each site was visited
 * from, per UTC day, no counts. Migration 007 keeps a frozen copy.
 */

/** The table's name. */
export const REFERRER_DOMAIN_DAYS = 'referrer_domain_days'

/** The `INSERT ... SELECT` listing the referrer domains of the events matching `where`. */
export const referrerDomainDaysInsert = (where: string): string =>
  `INSERT INTO ${REFERRER_DOMAIN_DAYS} SELECT site_id, toStartOfDay(timestamp) AS day, referrer_domain
   FROM events WHERE referrer_domain != '' AND ${where} GROUP BY site_id, day, referrer_domain`
