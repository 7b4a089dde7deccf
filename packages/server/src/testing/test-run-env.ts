/**
 * The environment variables through which the test run's setup (`test-run-setup.ts`) hands what it
 * made once to every test file's helpers.
 */

/** A chDB events data directory with every migration applied (`events-template.ts` copies it). */
export const EVENTS_TEMPLATE_ENV = 'PATHLIGHT_TEST_EVENTS_TEMPLATE'

/** The server bundled from the current sources (its `cli.js`), which `spawnServer` runs with plain node. */
export const SERVER_BUNDLE_ENV = 'PATHLIGHT_TEST_SERVER_BUNDLE'

/**
 * Which events store the tests run on: `chdb` (default, in the test's process), `clickhouse-server`
 * (the server pass, `npm run test:clickhouse-server`) or `clickhouse-cluster` (the cluster pass, `npm
 * run test:clickhouse-cluster`: two shards).
 */
export const TEST_EVENTS_ENV = 'PATHLIGHT_TEST_EVENTS'

/**
 * The HTTP address of the ClickHouse server that the server pass's setup started (no database); in the
 * cluster pass, the first shard's.
 */
export const CLICKHOUSE_SERVER_ENV = 'PATHLIGHT_TEST_CLICKHOUSE_URL'

/** The cluster pass: the cluster's name (`remote_servers`) its setup started. */
export const CLICKHOUSE_CLUSTER_ENV = 'PATHLIGHT_TEST_CLICKHOUSE_CLUSTER'

/** The cluster pass: its shards' HTTP addresses, comma-separated (as `CLICKHOUSE_SHARD_URLS`). */
export const CLICKHOUSE_SHARDS_ENV = 'PATHLIGHT_TEST_CLICKHOUSE_SHARDS'
