/**
 * 001: the `events` table, one row per tracked event of every type.
 *
 * Why this layout: nearly every query is "one site, a time range" (dashboards, v1 API, goals, errors).
 * ORDER BY (site_id, toDate(timestamp), timestamp) keeps each site's rows contiguous and sorted by time,
 * so the primary index prunes to the site and the days asked for; toDate first lets day-grained ranges
 * skip granules cheaply. PARTITION BY month keeps parts few (one site-month never spans partitions
 * more than needed) and makes retention a partition drop. LowCardinality on columns with few distinct
 * values (type, channel, browser, OS, device, country, language) shrinks them on disk and speeds GROUP BY;
 * pathnames, referrers and ids stay plain String because their cardinality is high.
 * Web vitals are Nullable because "not measured" differs from 0.
 */
export const eventsTable = {
  name: '001-events',
  statements: [
    `CREATE TABLE IF NOT EXISTS events (
      event_id UUID,
      site_id UInt32,
      timestamp DateTime64(3, 'UTC'),
      type LowCardinality(String),
      session_id String,
      user_id String,
      hostname LowCardinality(String),
      pathname String,
      querystring String,
      page_title String,
      referrer String,
      referrer_domain String,
      channel LowCardinality(String),
      utm_source String,
      utm_medium LowCardinality(String),
      utm_campaign String,
      utm_term String,
      utm_content String,
      browser LowCardinality(String),
      browser_version LowCardinality(String),
      operating_system LowCardinality(String),
      operating_system_version LowCardinality(String),
      device_type LowCardinality(String),
      screen_width UInt16,
      screen_height UInt16,
      language LowCardinality(String),
      country LowCardinality(String),
      region LowCardinality(String),
      city String,
      lat Nullable(Float32),
      lon Nullable(Float32),
      event_name String,
      properties String,
      lcp Nullable(Float64),
      cls Nullable(Float64),
      inp Nullable(Float64),
      fcp Nullable(Float64),
      ttfb Nullable(Float64),
      error_message String,
      error_stack String,
      error_file String,
      error_line UInt32,
      error_column UInt32
    )
    ENGINE = MergeTree
    PARTITION BY toYYYYMM(timestamp)
    ORDER BY (site_id, toDate(timestamp), timestamp)`,
  ],
} as const
