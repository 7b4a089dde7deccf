/**
 * The common query parameters of every read route (DESIGN §4), parsed once into `QueryParams`:
 *
 * | Parameter    | Format                         | Default                                   |
 * |--------------|--------------------------------|-------------------------------------------|
 * | `start_date` | YYYY-MM-DD, first day included | 29 days before `end_date` (30 days in all) |
 * | `end_date`   | YYYY-MM-DD, last day included  | today in `time_zone`                      |
 * | `time_zone`  | IANA name (case-insensitive)   | UTC                                       |
 * | `filters`    | JSON array, see `filters.ts`   | none                                      |
 * | `page`       | integer >= 1                   | 1                                         |
 * | `limit`      | integer 1..1000                | 50                                        |
 * | `compare`    | previous_period, previous_year, custom, none | previous_period (see `compared-range.ts`) |
 * | `compare_start_date`, `compare_end_date` | YYYY-MM-DD, with compare=custom only (then required) | |
 * | `match_day_of_week` | true or false           | false                                     |
 *
 * Days are calendar days in `time_zone`: the range is `[start of start_date, start of the day after
 * end_date)` in that zone, as UTC instants (so a range over a DST change is 23 or 25 hours longer or
 * shorter, as the wall clock says). A range may span at most `MAX_RANGE_DAYS` days (the protocol's).
 * Invalid values answer 400 with `details.fieldErrors` keyed by parameter name; unknown parameters are
 * ignored.
 */
import {
  type AnalyticsQuery,
  analyticsQuery,
  DEFAULT_LIMIT,
  DEFAULT_RANGE_DAYS,
  integerParam,
  MAX_RANGE_DAYS,
  single,
} from '@pathlight/protocol'
import type { z } from 'zod'
import { badRequest } from '../shared/errors.js'
import { type CompareRequest, type DayRange, defaultComparison } from './compared-range.js'
import { checkFiltersParam, type Filter } from './filters.js'
import {
  addDays,
  canonicalTimeZone,
  dayIn,
  daysBetween,
  startOfDayIn,
  timeZoneAsNamed,
} from './zoned-time.js'

/** Page size default and cap, page cap, default range (days) and longest range (days): the protocol's. */
export { DEFAULT_LIMIT, DEFAULT_RANGE_DAYS, MAX_LIMIT, MAX_PAGE, MAX_RANGE_DAYS } from '@pathlight/protocol'

/** Parsed common parameters. */
export interface QueryParams {
  /** First day of the range, 'YYYY-MM-DD' in `timeZone`. */
  startDate: string
  /** Last day of the range (included), 'YYYY-MM-DD' in `timeZone`. */
  endDate: string
  /** Canonical IANA zone name (as ClickHouse knows it). */
  timeZone: string
  /**
   * The zone as the request named it (`timeZoneAsNamed`: `Asia/Kolkata` stays so, where `timeZone`
   * is ICU's `Asia/Calcutta`), for answers (`meta.timeZone`); present only when it differs from
   * `timeZone`.
   */
  timeZoneName?: string
  /** Start of `startDate` in `timeZone`: epoch ms, UTC, included. */
  from: number
  /** Start of the day after `endDate` in `timeZone`: epoch ms, UTC, excluded. */
  to: number
  filters: Filter[]
  /** 1-based page number. */
  page: number
  /** Rows per page. */
  limit: number
  /**
   * The comparison the request named (`compare`, `compare_start_date`, `compare_end_date`,
   * `match_day_of_week`); absent when it named none (reports then use `defaultComparison`).
   */
  compare?: CompareRequest
}

/** Rows to skip for the page. */
export const offsetOf = (params: Pick<QueryParams, 'page' | 'limit'>): number =>
  (params.page - 1) * params.limit

/** Boolean, enumerated and list query parameters (the protocol's). */
export { booleanParam, enumParam, listParam } from '@pathlight/protocol'
/** A value given once, and an integer within bounds, from query-string text (the protocol's). */
export { integerParam, single }

/**
 * Parse the common parameters of a request's query string.
 * @param query Fastify's `request.query` (an object of strings; arrays for repeated names)
 * @param nowMs the current time, epoch ms (the default range ends today in the zone)
 * @throws AppError 400 `Invalid <name>: <problem>` with `details: {fieldErrors: {<name>: [...]}, formErrors: []}`
 */
export function parseQueryParams(query: unknown, nowMs: number): QueryParams {
  return resolveQueryParams(parseParams(analyticsQuery, query), nowMs)
}

/** `{timeZoneName}` when the request named the zone otherwise than its canonical name, else `{}`. */
function namedZone(named: string | undefined, timeZone: string): { timeZoneName?: string } {
  const asNamed = named === undefined ? null : timeZoneAsNamed(named)
  return asNamed !== null && asNamed !== timeZone ? { timeZoneName: asNamed } : {}
}

/**
 * Resolve parsed common parameters (`analyticsQuery` of the protocol, as a contract's route gets
 * them: `filters` already the JSON value of its text, a saved segment's filters after the request's
 * own when it named `segment`) against the clock: the default range, the time zone's canonical name,
 * the filters checked. Nothing here parses text.
 * @param nowMs the current time, epoch ms (the default range ends today in the zone)
 * @throws AppError 400 as `parseQueryParams`, for an unknown time zone, invalid filters or a range
 *   that runs backwards or spans too long
 */
export function resolveQueryParams(raw: AnalyticsQuery, nowMs: number): QueryParams {
  const fieldErrors: Record<string, string[]> = {}
  const problem = (name: string, message: string) => {
    fieldErrors[name] = [...(fieldErrors[name] ?? []), message]
  }

  const timeZone = raw.time_zone === undefined ? 'UTC' : canonicalTimeZone(raw.time_zone)
  if (timeZone === null)
    problem('time_zone', 'time_zone must be an IANA time zone name such as Europe/Berlin')

  let filters: Filter[] = []
  if (raw.filters !== undefined) {
    const checked = checkFiltersParam(raw.filters)
    if (checked.ok) filters = checked.filters
    else for (const message of checked.problems) problem('filters', message)
  }

  const endDate = raw.end_date ?? dayIn(nowMs, timeZone ?? 'UTC')
  const startDate = raw.start_date ?? addDays(endDate, -(DEFAULT_RANGE_DAYS - 1))
  const span = daysBetween(startDate, endDate)
  if (span < 0) problem('end_date', 'end_date must not be before start_date')
  else if (span >= MAX_RANGE_DAYS) problem('end_date', `the range must span at most ${MAX_RANGE_DAYS} days`)

  const compare = comparisonOf(raw, problem)

  if (timeZone === null || Object.keys(fieldErrors).length > 0) throw invalidParameters(fieldErrors)
  return {
    startDate,
    endDate,
    timeZone,
    ...namedZone(raw.time_zone, timeZone),
    from: startOfDayIn(startDate, timeZone),
    to: startOfDayIn(addDays(endDate, 1), timeZone),
    filters,
    page: raw.page ?? 1,
    limit: raw.limit ?? DEFAULT_LIMIT,
    ...(compare ? { compare } : {}),
  }
}

/**
 * The comparison the parameters name, undefined when they name none. The custom range's days are
 * required with `compare=custom` and refused with any other mode (never silently ignored).
 */
function comparisonOf(
  raw: AnalyticsQuery,
  problem: (name: string, message: string) => void,
): CompareRequest | undefined {
  const { compare, compare_start_date: start, compare_end_date: end, match_day_of_week: match } = raw
  if (compare === undefined && start === undefined && end === undefined && match === undefined)
    return undefined
  const mode = compare ?? defaultComparison.mode
  if (mode !== 'custom') {
    for (const [name, value] of [
      ['compare_start_date', start],
      ['compare_end_date', end],
    ] as const) {
      if (value !== undefined) problem(name, `${name} is only taken with compare=custom`)
    }
    return { mode, matchDayOfWeek: match ?? false }
  }
  if (start === undefined) problem('compare_start_date', 'compare_start_date is required with compare=custom')
  if (end === undefined) problem('compare_end_date', 'compare_end_date is required with compare=custom')
  if (start === undefined || end === undefined) return undefined
  const span = daysBetween(start, end)
  if (span < 0) problem('compare_end_date', 'compare_end_date must not be before compare_start_date')
  else if (span >= MAX_RANGE_DAYS) {
    problem('compare_end_date', `the compared range must span at most ${MAX_RANGE_DAYS} days`)
  }
  const custom: DayRange = { startDate: start, endDate: end }
  return { mode, custom, matchDayOfWeek: match ?? false }
}

/**
 * Parse route-specific query parameters with a zod object schema of named fields.
 * @throws AppError 400 naming each invalid parameter (see `parseQueryParams`)
 */
export function parseParams<Schema extends z.ZodType>(schema: Schema, query: unknown): z.infer<Schema> {
  const parsed = schema.safeParse(query ?? {})
  if (parsed.success) return parsed.data
  const fieldErrors: Record<string, string[]> = {}
  for (const issue of parsed.error.issues) {
    const name = String(issue.path[0] ?? 'query')
    fieldErrors[name] = [...(fieldErrors[name] ?? []), issue.message]
  }
  throw invalidParameters(fieldErrors)
}

/** The 400 for invalid query parameters: the message names them, details list every problem. */
export function invalidParameters(fieldErrors: Record<string, string[]>) {
  const names = Object.keys(fieldErrors)
  const first = fieldErrors[names[0] ?? '']?.[0]
  const message =
    names.length === 1 && first !== undefined
      ? `Invalid ${names[0]}: ${first}`
      : `Invalid query parameters: ${names.join(', ')}`
  return badRequest(message, { fieldErrors, formErrors: [] })
}
