/**
 * 014: AI traffic.
 * - `session_hours_view` anew with the channel codes of `AI_TRAFFIC_CHANNELS` ('AI Assistants' appended as
 *   code 12): the table and every stored code stay as they were, so nothing is refilled. Events stored
 *   before keep the channel they were given (`pathlight rederive-channels` assigns them anew).
 * - `crawler_requests`: the requests of crawlers and other non-human agents read from a site's access
 *   log (`crawlers/`), one row a request. Crawler requests are not pageviews: no view reads this table
 *   into the rollups, so no existing report changes. Retention and site deletion delete its rows with
 *   the site's events. No client address is stored: verification happens at ingest.
 */
import { ROLLED_CHANNELS } from './003-rollups.js'
import { channelArrayOf, sessionHoursGroup, sessionHoursSelectOf } from './008-event-order.js'

/** The table of crawler requests (`crawlers/crawler-store.ts` writes and reads it). */
const CRAWLER_REQUESTS = 'crawler_requests'

/** The channels this migration's view codes (frozen: 003's and 'AI Assistants' as code 12). */
const AI_TRAFFIC_CHANNELS = [...ROLLED_CHANNELS, 'AI Assistants'] as const

/** Migration 014: the view recreated, the crawler table created. */
export const aiTrafficTables = {
  name: '014-ai-traffic',
  statements: [
    'DROP VIEW IF EXISTS session_hours_view',
    `CREATE MATERIALIZED VIEW session_hours_view TO session_hours AS
     ${sessionHoursSelectOf(channelArrayOf(AI_TRAFFIC_CHANNELS))} ${sessionHoursGroup}`,
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
