/**
 * The rows the error reports read: error events of the scope (site, range) that pass the filters
 * (event filters on the event itself; session filters through its session).
 */
import { eventTypeConditions } from './metrics.js'
import { filtersOf, type ReportScope, SCOPE_SQL, scopeOf } from './report-scope.js'
import { sessionFilterRestriction } from './sessions-subquery.js'

/** @returns conditions to AND into a WHERE, and the values of their placeholders */
export function errorConditions(scope: ReportScope): { where: string[]; params: Record<string, unknown> } {
  const filters = filtersOf(scope)
  return {
    where: [
      SCOPE_SQL,
      eventTypeConditions.error,
      ...(filters.event === null ? [] : [filters.event]),
      ...[sessionFilterRestriction(filters)].filter((c): c is string => c !== null),
    ],
    params: { ...scopeOf(scope).params, ...filters.params },
  }
}
