/**
 * A segment's filters, checked by the parser of the `filters` query parameter (`query/filters.ts`),
 * so a segment holds exactly the filters a request could name inline.
 */
import { checkFilters, type Filter } from '../query/filters.js'
import { badRequest } from '../shared/errors.js'

/**
 * The filters of a segment body, as parsed filters.
 * @param filters the body's `filters` (shaped `{parameter, type, value}[]` by the contract)
 * @throws AppError 400 `Invalid segment: filters: <problem>` naming the filter's index, with
 *   `details.fieldErrors.filters`
 */
export function segmentFilters(filters: unknown): Filter[] {
  const parsed = checkFilters(filters)
  if (parsed.ok) return parsed.filters
  throw badRequest(`Invalid segment: filters: ${parsed.problems[0]}`, {
    fieldErrors: { filters: parsed.problems },
    formErrors: [],
  })
}
