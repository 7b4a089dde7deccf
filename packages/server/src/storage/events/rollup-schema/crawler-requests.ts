/**
 * `crawler_requests` (migration 014): the requests of crawlers read from a site's access log, one row
 * a request, written and read by `crawlers/`. Not a rollup: no view reads it; kept here with the
 * other table definitions runtime code imports instead of the numbered migrations.
 */

/** The table's name. */
export const CRAWLER_REQUESTS = 'crawler_requests'
