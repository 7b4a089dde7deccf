/**
 * The server pass: the test files of the event side that run a second time with their events store on
 * a ClickHouse server (`PATHLIGHT_TEST_EVENTS=clickhouse-server`, `npm run test:clickhouse-server`),
 * after the whole suite ran on chDB. Listed by name, so the pass stays small (every other file only
 * repeats metadata, auth or dashboard work that is the same on both stores), and checked by
 * `vitest.config.ts`: a listed file that is missing or left out (a service it needs is down) fails
 * the pass, as does a skipped test in it (`no-skipped-tests-reporter.ts`).
 * Paths are relative to the repository's root.
 */
const src = (file: string) => `packages/server/src/${file}`

export const CLICKHOUSE_SERVER_PASS_FILES: readonly string[] = [
  // The store contract, the adapter's own differences from chDB, and the fixture.
  src('storage/events/clickhouse-store.test.ts'),
  src('testing/clickhouse-server.test.ts'),
  // Migrations and upgrades of a populated store.
  src('storage/events/migrations/009-event-properties.test.ts'),
  // The query time limit.
  src('storage/events/timed-events-store.test.ts'),
  // Rollups, the fold and the seal.
  src('query/rollups/rollups.test.ts'),
  src('query/rollups/rolled-page-stats.test.ts'),
  src('query-api/rollup-sessions.test.ts'),
  src('workers/session-fold-pass.test.ts'),
  // Retention and erasure.
  src('retention/expire-events.test.ts'),
  src('query/visitor-events.test.ts'),
  src('http/visitor-data.test.ts'),
  // Identified users' figures and timelines.
  src('users/users-api.test.ts'),
  // Import and export.
  src('http/import.test.ts'),
  src('http/import-umami.test.ts'),
  src('http/import-ga4.test.ts'),
  src('http/import-plausible.test.ts'),
  src('http/import-dates.test.ts'),
  src('query/export-events.test.ts'),
  // Journal recovery, and acknowledged events across SIGKILL of a server process.
  src('ingest/journaled-write-buffer.test.ts'),
  'packages/server/test/durability.test.ts',
  // The report registry's reports, in the dashboard and in v1, and the queries behind them.
  src('http/reports.test.ts'),
  src('http/report-batch.test.ts'),
  src('http/v1/v1.test.ts'),
  src('query/breakdown-dimensions.test.ts'),
  src('query/breakdown.test.ts'),
  src('query/error-buckets.test.ts'),
  src('query/error-events.test.ts'),
  src('query/error-names.test.ts'),
  src('query/event-list.test.ts'),
  src('query/event-order.test.ts'),
  src('query/experiment-results.test.ts'),
  src('query/expired-events.test.ts'),
  src('query/funnel-report.test.ts'),
  src('query/goal-conversions.test.ts'),
  src('query/goal-sessions.test.ts'),
  src('query/live-visitors.test.ts'),
  src('query/overview.test.ts'),
  src('query/retention.test.ts'),
  src('query/session-events.test.ts'),
  src('query/session-list.test.ts'),
  src('query/site-events.test.ts'),
  src('query/web-vitals.test.ts'),
  // Engagement: the materialized columns, its reports over imported events, its ingest.
  src('query/page-engagement.test.ts'),
  src('http/track-engagement.test.ts'),
  // The property map.
  src('http/properties.test.ts'),
  src('http/v1/properties.test.ts'),
  src('http/property-filters.test.ts'),
  // Webhooks from tracked events, and tracking's writes.
  src('http/webhooks.test.ts'),
  src('http/track.test.ts'),
  src('query-api/run-query-api.test.ts'),
  src('query-api/query-api-imports.test.ts'),
  src('query-api/query-api-engagement-revenue.test.ts'),
  src('query-api/query-api-has-done.test.ts'),
  src('query-api/query-api-crawlers.test.ts'),
  // Crawler requests from access logs: their table, retention and deletion, the reports; the AI channel.
  src('crawlers/ingest-log.test.ts'),
  src('http/crawlers.test.ts'),
  src('query/rederive-channels.test.ts'),
  // Heatmap clicks: their columns, the heatmap query, v1 and the viewing link.
  src('http/heatmaps.test.ts'),
]

/**
 * The cluster pass (`PATHLIGHT_TEST_EVENTS=clickhouse-cluster`, `npm run test:clickhouse-cluster`): on
 * a two-shard cluster, the files that answer what sharding can change, within a few minutes of CI:
 * every registry report and v1 against one embedded chDB (`clickhouse-cluster-store.test.ts`, with the
 * settings' errors and the sharding itself), the registry's and v1's pinned answers, the store
 * contract, erasure, retention, import and export, the fold and the seal, and the journal. The rest of
 * the server pass's list (each report's own query file, the property map, webhooks, tracking) reads
 * through the same `Distributed` tables and is left to the server pass, to keep the pass short.
 */
export const CLICKHOUSE_CLUSTER_PASS_FILES: readonly string[] = [
  src('storage/events/clickhouse-cluster-store.test.ts'),
  src('storage/events/clickhouse-store.test.ts'),
  src('http/reports.test.ts'),
  src('http/v1/v1.test.ts'),
  src('http/visitor-data.test.ts'),
  src('retention/expire-events.test.ts'),
  src('http/import.test.ts'),
  src('query/export-events.test.ts'),
  src('workers/session-fold-pass.test.ts'),
  src('query/rollups/rolled-page-stats.test.ts'),
  src('ingest/journaled-write-buffer.test.ts'),
]
