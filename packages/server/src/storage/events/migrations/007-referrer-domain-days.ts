/**
 * 007: `referrer_domain_days`, the referrer domains each site was visited from, per UTC day: one row
 * per (site, day, referrer domain), no counts. Kept by a materialized view on `events`.
 *
 * Why: the session rollups keep a session's entry referrer domain as a hash (`session_hours`,
 * `session_summaries`). The referrers breakdown turns the hashes back into text by hashing the range's
 * domains. Those came from a scan of `events.referrer_domain` over the range, a large share of the
 * breakdown's time. This table lists them in far fewer rows, nearly all of it hashes (bench/README.md
 * "Session breakdowns: texts after grouping, referrer domains by day").
 *
 * The day grain makes the list a superset of a range's domains: a range that starts or ends inside a
 * day also lists the domains of that day's other hours. Retention keeps the cutoff's own day, so the
 * list may name a domain whose events are gone. Neither matters for a lookup by hash: a text with no
 * session is never asked for.
 *
 * Deletes follow the raw events' (`query/rollups/rollup-maintenance.ts`: a site's rows; retention's
 * days before the cutoff's day). Backfill: from the stored events, month by month, before the process
 * accepts traffic (as 003 and 004; several processes sharing one ClickHouse server: upgrade with ingest
 * stopped, or the domains of events arriving meanwhile are listed twice, which a lookup ignores).
 */
import type { EventsStore } from '../events-store.js'
import { refillByMonth } from './refill-by-month.js'

/** This migration's table. */
const REFERRER_DOMAIN_DAYS = 'referrer_domain_days'

/** The SELECT turning event rows into `referrer_domain_days` rows (the view's and the backfill's). */
const referrerDomainDaysSelect = `SELECT site_id, toStartOfDay(timestamp) AS day, referrer_domain
FROM events`
const referrerDomainDaysGroup = 'GROUP BY site_id, day, referrer_domain'

/** The `INSERT ... SELECT` listing the referrer domains of the events matching `where`. */
const referrerDomainDaysInsert = (where: string): string =>
  `INSERT INTO ${REFERRER_DOMAIN_DAYS} ${referrerDomainDaysSelect}
   WHERE referrer_domain != '' AND ${where} ${referrerDomainDaysGroup}`

/** Migration 007: the table, its view, the backfill. */
export const referrerDomainDaysTable = {
  name: '007-referrer-domain-days',
  statements: [
    `CREATE TABLE IF NOT EXISTS ${REFERRER_DOMAIN_DAYS} (
      site_id UInt32,
      day DateTime('UTC'),
      referrer_domain String
    )
    ENGINE = ReplacingMergeTree
    PARTITION BY toYYYYMM(day)
    ORDER BY (site_id, day, referrer_domain)`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS referrer_domain_days_view TO ${REFERRER_DOMAIN_DAYS} AS
     ${referrerDomainDaysSelect} WHERE referrer_domain != '' ${referrerDomainDaysGroup}`,
  ],
  backfill: (store: EventsStore) =>
    refillByMonth(store, [REFERRER_DOMAIN_DAYS], (where) => [referrerDomainDaysInsert(where)]),
} as const
