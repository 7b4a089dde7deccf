/**
 * The query string of the analytics reads, as text parsers: each parameter is parsed from the text
 * Fastify gives (one string per name; an array when a name repeats), with a message naming it, and
 * documented as the value it stands for (`page` an integer, `start_date` a date). Resolving the range
 * against the clock, the time zone's canonical name and the filters' regular expressions is the
 * server's (`query/params.ts`): those need the current time or the server's regex engine.
 */
import { z } from 'zod'
import { compareModes, filterParameters, propertyFilterTypes } from './enums.js'
import { doc, documentAs, jsonValueAs, openApiRegistry } from './openapi-registry.js'
import {
  DEFAULT_LIMIT,
  DEFAULT_RANGE_DAYS,
  isCalendarDay,
  MAX_FILTER_VALUES,
  MAX_FILTERS,
  MAX_LIMIT,
  MAX_PAGE,
  MAX_RANGE_DAYS,
  MAX_SEGMENT_ID,
  MAX_VALUE_LENGTH,
} from './query-rules.js'

/** The bounds and the calendar day of the common parameters (`query-rules.ts`, free of zod). */
export {
  DEFAULT_LIMIT,
  DEFAULT_RANGE_DAYS,
  isCalendarDay,
  MAX_FILTER_VALUES,
  MAX_FILTERS,
  MAX_LIMIT,
  MAX_PAGE,
  MAX_RANGE_DAYS,
  MAX_REGEX_LENGTH,
  MAX_SEGMENT_ID,
  MAX_VALUE_LENGTH,
} from './query-rules.js'

/**
 * A query-string value given once: `<label> is required` when absent, `must be given once` for a
 * repeated name (Fastify turns `?a=1&a=2` into an array), `must be a string` otherwise.
 */
export const single = (label: string) =>
  z.string({
    error: (issue) =>
      issue.input === undefined
        ? `${label} is required`
        : Array.isArray(issue.input)
          ? `${label} must be given once`
          : `${label} must be a string`,
  })

/**
 * An integer query parameter within bounds, from its decimal text (at most nine digits); documented
 * as an integer, and in JSON (a batch part) an integer of at least `min`, checked against both bounds
 * (`jsonCheckOf`). Failures say `<name> must be an integer from <min> to <max>` (or, like `single`,
 * required / given once / a string).
 */
export const integerParam = (name: string, min: number, max: number) => {
  const message = `${name} must be an integer from ${min} to ${max}`
  const parser = z.preprocess(
    (value) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value),
    z
      .int({
        error: (issue) =>
          issue.input === undefined
            ? `${name} is required`
            : Array.isArray(issue.input)
              ? `${name} must be given once`
              : typeof issue.input === 'string' || typeof issue.input === 'number'
                ? message
                : `${name} must be a string`,
      })
      .min(min, message)
      .max(max, message),
  )
  // In JSON a number, documented without the upper bound: its 400 names the parameter, as the text's does.
  return jsonValueAs(
    parser,
    z.int(message).min(min, message),
    z.int(message).min(min, message).max(max, message),
  )
}

/**
 * A query parameter given once and one of `values`: failures say `problem` (default `<name> must be one
 * of a, b, c`), or like `single` required / given once / a string. Documented as the enumeration.
 */
export const enumParam = <const Values extends readonly [string, ...string[]]>(
  name: string,
  values: Values,
  problem = `${name} must be one of ${values.join(', ')}`,
) =>
  z.enum(values, {
    error: (issue) =>
      issue.input === undefined
        ? `${name} is required`
        : Array.isArray(issue.input)
          ? `${name} must be given once`
          : typeof issue.input !== 'string'
            ? `${name} must be a string`
            : problem,
  })

/**
 * A boolean query parameter: `true` or `false` (documented as a boolean, and a boolean in JSON). Typed as what it parses
 * (text in, a boolean out), not narrowed to the documented shape: text and a boolean have no input in
 * common, and clients send either (`QueryValue`).
 */
export const booleanParam = (name: string) => {
  const schema = single(name)
    .refine((v) => v === 'true' || v === 'false', `${name} must be true or false`)
    .transform((v) => v === 'true')
  documentAs(schema, z.boolean())
  return jsonValueAs(schema, z.boolean())
}

/**
 * A query parameter holding a comma-separated list of `values` (`type=pageview,custom_event`), parsed
 * into the array; documented as the text it is; in JSON, a list of at least one of `values`.
 */
export const listParam = <const Values extends readonly [string, ...string[]]>(
  name: string,
  values: Values,
) =>
  jsonValueAs(
    single(name)
      .transform((list) => list.split(',').map((v) => v.trim()))
      .refine((list) => list.every((v) => values.includes(v)), {
        message: `${name} must be a comma-separated list of ${values.join(', ')}`,
      })
      .transform((list) => list as Values[number][]),
    z.array(z.enum(values)).min(1),
  )

const day = (name: string, description: string) =>
  doc(
    single(name).refine(isCalendarDay, `${name} must be a calendar date YYYY-MM-DD between 1970 and 2100`),
    { format: 'date', description },
  )

/** The JSON the `filters` parameter holds (its content schema in the document). */
const filterList = z
  .array(
    z.object({
      parameter: doc(
        z.union([z.enum(filterParameters), z.templateLiteral(['properties.', z.string()])]),
        'A column, or `properties.<key>`: the custom property `<key>` (1 to 100 printable characters), ' +
          'its value as canonical text (3, "3" and 3.0 alike; objects and arrays as JSON text; absent: "")',
      ),
      type: doc(
        z.enum(propertyFilterTypes),
        'equals, not_equals, starts_with: exact; contains, not_contains: any case; is_set, is_not_set: ' +
          'whether the event carries the property (`properties.<key>` only, value `[]`)',
      ),
      value: doc(
        z.array(z.string().max(MAX_VALUE_LENGTH)).max(MAX_FILTER_VALUES),
        'Alternatives: `equals` any of them, `not_equals` none of them; at least one, none for is_set / is_not_set',
      ),
    }),
  )
  .max(MAX_FILTERS)

/**
 * The `filters` parameter as its contract parses it: the JSON value its text holds (`json`), or
 * `notJson` for text that is not JSON; an empty text is no filters (undefined). The value is checked by
 * the server (`query/filters.ts`: the filters' shape, their count with a saved segment's, the regular
 * expressions), which names its problems beside those of the other parameters it checks.
 */
export type FiltersJson = { json: unknown } | { notJson: true }

/** The JSON value of the `filters` text (see `FiltersJson`). */
function filtersJsonOf(text: string): FiltersJson | undefined {
  if (text === '') return undefined
  try {
    return { json: JSON.parse(text) }
  } catch {
    return { notJson: true }
  }
}

const { $schema: _dialect, ...filterListSchema } = z.toJSONSchema(filterList, {
  target: 'draft-2020-12',
  io: 'input',
  unrepresentable: 'any',
  metadata: openApiRegistry,
})

/**
 * The comparison parameters (common to every analytics read; the server resolves the compared range
 * in `query/compared-range.ts`): `compare`, the custom range's `compare_start_date` and
 * `compare_end_date`, and `match_day_of_week`.
 */
const comparisonQuery = {
  compare: doc(
    z.enum(compareModes, {
      error: (issue) =>
        Array.isArray(issue.input)
          ? 'compare must be given once'
          : `compare must be one of ${compareModes.join(', ')}`,
    }),
    'What the figures are compared with: `previous_period` (default: the days of equal length just before), ' +
      '`previous_year` (the same days a year before; 29 February maps to 28 February), `custom` ' +
      '(`compare_start_date`..`compare_end_date`) or `none` (no comparison figures). Stats compare by ' +
      'default; the series and breakdowns add the compared figures when `compare` is given',
  ).optional(),
  compare_start_date: day(
    'compare_start_date',
    'First day of the compared range; required with compare=custom',
  ).optional(),
  compare_end_date: day(
    'compare_end_date',
    'Last day of the compared range, included; required with compare=custom',
  ).optional(),
  match_day_of_week: doc(
    z
      .enum(['true', 'false'], {
        error: (issue) =>
          Array.isArray(issue.input)
            ? 'match_day_of_week must be given once'
            : 'match_day_of_week must be true or false',
      })
      .transform((v) => v === 'true'),
    '`true`: shift the compared range so that its days fall on the same weekdays as the range ' +
      '(previous_period: earlier by up to 6 days; previous_year and custom: by up to 3 days either way)',
  ).optional(),
}

/**
 * `segment`: a saved segment's id, whose filters are ANDed with `filters` (the server resolves it once
 * per request, for the caller: an unknown id, another site's segment or another user's personal
 * segment answers 404).
 */
export const segmentQuery = z.object({
  segment: doc(
    integerParam('segment', 1, MAX_SEGMENT_ID),
    "A saved segment's id (`GET .../segments`): its filters are ANDed with `filters` (together at most " +
      `${MAX_FILTERS}). An unknown id, another site's segment or another user's personal segment answers 404`,
  ).optional(),
})

/**
 * The common parameters of every analytics read: `start_date`, `end_date` (calendar days),
 * `time_zone` (text; the server checks the name), `filters` (JSON text, parsed here into its value,
 * `FiltersJson`, which the server checks), `page` and `limit` (integers), the comparison (`compare`,
 * `compare_start_date`, `compare_end_date`, `match_day_of_week`), and `segment`. All optional; unknown
 * parameters are ignored.
 */
export const analyticsQuery = z.object({
  start_date: day(
    'start_date',
    'First day (YYYY-MM-DD, calendar day in time_zone); ' +
      `default ${DEFAULT_RANGE_DAYS - 1} days before end_date`,
  ).optional(),
  end_date: day(
    'end_date',
    `Last day, included; default today in time_zone. The range spans at most ${MAX_RANGE_DAYS} days`,
  ).optional(),
  time_zone: doc(
    single('time_zone'),
    'IANA time zone name (case-insensitive), e.g. Europe/Berlin; default UTC',
  ).optional(),
  filters: doc(single('filters').transform(filtersJsonOf), {
    description:
      'JSON array of `{parameter, type, value:[...]}` (URL-encoded); filters combine with AND. ' +
      'Example: `[{"parameter":"country","type":"equals","value":["US","CA"]}]`',
    contentMediaType: 'application/json',
    contentSchema: filterListSchema,
  }).optional(),
  page: doc(integerParam('page', 1, MAX_PAGE), '1-based page number; default 1').optional(),
  limit: doc(integerParam('limit', 1, MAX_LIMIT), `Rows per page; default ${DEFAULT_LIMIT}`).optional(),
  ...segmentQuery.shape,
  ...comparisonQuery,
})

/** The parsed common parameters (before the server resolves the range). */
export type AnalyticsQuery = z.output<typeof analyticsQuery>
