/**
 * 014: AI traffic.
 * - `session_hours_view` anew with the channel codes of `CODED_CHANNELS` ('AI Assistants' appended as
 *   code 12): the table and every stored code stay as they were, so nothing is refilled. Events stored
 *   before keep the channel they were given (`pathlight rederive-channels` assigns them anew).
 * - `crawler_requests`: the requests of crawlers and other non-human agents read from a site's access
 *   log (`crawlers/`), one row a request. Crawler requests are not pageviews: no view reads this table
 *   into the rollups, so no existing report changes. Retention and site deletion delete its rows with
 *   the site's events. No client address is stored: verification happens at ingest.
 */
import { sessionHoursView } from './008-event-order.js'

/** The table of crawler requests (`crawlers/crawler-store.ts` writes and reads it). */
export const CRAWLER_REQUESTS = 'crawler_requests'

/** Migration 014: the view recreated, the crawler table created. */
export const aiTrafficTables = {
  name: '014-ai-traffic',
  statements: [
    'DROP VIEW IF EXISTS session_hours_view',
    sessionHoursView,
    `CREATE TABLE IF NOT EXISTS ${CRAWLER_REQUESTS} (
      site_id UInt32,
      timestamp DateTime64(3, 'UTC'),
      agent LowCardinality(String),
      operator LowCardinality(String),
      category LowCardinality(String),
      verified Bool,
      method LowCardinality(String),
      host String,
      pathname String,
      status UInt16,
      bytes UInt64,
      user_agent String
    )
    ENGINE = MergeTree
    PARTITION BY toYYYYMM(timestamp)
    ORDER BY (site_id, timestamp)`,
  ],
} as const
