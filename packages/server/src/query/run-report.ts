/**
 * The run step of the query pipeline: execute a compiled query on the events store. ClickHouse
 * refusals caused by request values (a regex RE2 cannot compile, a time zone its tables lack) become
 * 400s; anything else propagates (a 500 that leaks nothing).
 */

import { AppError } from '../shared/errors.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { invalidParameters } from './params.js'

/**
 * @param report the report's name (its module, e.g. `overview`, `page-stats`): the `report` label of
 *   `pathlight_report_query_duration_seconds`
 * @returns the rows, as the store returns them (JSON; UInt64 as numbers)
 */
export async function runReport<Row>(
  events: EventsStore,
  query: CompiledQuery,
  report: string,
): Promise<Row[]> {
  try {
    return await events.query<Row>(query.sql, query.params, { label: report })
  } catch (error) {
    throw clientErrorOf(error) ?? error
  }
}

/**
 * The answer a store error stands for, or null when it is neither the request's fault nor a bound
 * the store enforces: 400 for a regex RE2 refuses or an unknown time zone, 503 for a query stopped at
 * the store's time bound (`QUERY_TIMEOUT_SECONDS`) or for a shard of a cluster that does not answer
 * (the other shards' part would be partial figures).
 */
export function clientErrorOf(error: unknown): AppError | null {
  const message = error instanceof Error ? error.message : String(error)
  if (/TIMEOUT_EXCEEDED|Timeout exceeded: elapsed/.test(message)) {
    return new AppError(
      503,
      'The query took longer than the events store allows: narrow the range or the filters',
    )
  }
  // ClickHouse's codes 279 ALL_CONNECTION_TRIES_FAILED, 210 NETWORK_ERROR, 209 SOCKET_TIMEOUT: a
  // server the query needs (a shard, from the server that runs it) did not answer.
  const code = (error as { code?: unknown } | null)?.code
  if (
    ['279', '210', '209'].includes(String(code)) ||
    /ALL_CONNECTION_TRIES_FAILED|All connection tries failed/.test(message)
  ) {
    return new AppError(
      503,
      "A shard of the events store's cluster does not answer: the figures would be partial, so none are given",
    )
  }
  if (/cannot compile re2|CANNOT_COMPILE_REGEXP/i.test(message)) {
    return invalidParameters({ filters: ['a regex filter is not valid RE2 syntax'] })
  }
  if (/Cannot load time zone/i.test(message)) {
    return invalidParameters({ time_zone: ['time_zone is not known to the events store'] })
  }
  return null
}
