/**
 * Report filters: the `filters` query parameter (common to every report), a JSON array of
 * `{parameter, type, value: string[]}`, validated here and compiled to SQL conditions whose values are
 * all bound parameters. Column expressions come from the fixed maps below, never from input.
 *
 * Semantics (one rule for every report):
 * - Several filters are AND-ed. The values of one filter are OR-ed for `equals`, `contains`,
 *   `starts_with` and `regex` (any value matches), and NOR-ed for `not_equals` and `not_contains`
 *   (no value matches). Several regex values are joined into one RE2 pattern `(?:a)|(?:b)`.
 * - `equals`, `not_equals`, `starts_with` compare exactly (case-sensitive); `contains` and
 *   `not_contains` ignore case; `regex` is RE2 syntax (ClickHouse `match`, unanchored: add `^`/`$`;
 *   `(?i)` for case-insensitive), at most 256 characters.
 * - Event filters (every parameter except entry_page and exit_page) apply to each event: event-level
 *   figures (pageviews, top pages, breakdowns, errors) count only events that pass them, and a session
 *   takes part in session-level figures (sessions, bounce rate, duration, goal conversions) when at
 *   least one of its events in the range passes them; its other events then count towards its
 *   duration, pageview count and entry/exit pages.
 * - Session filters (`entry_page`, `exit_page`) apply to a session's first / last pageview pathname
 *   in the range, and keep or drop whole sessions.
 * - `referrer` filters the referrer's domain (`referrer_domain`, 'www.' folded), the value the
 *   referrers report shows.
 * - `properties.<key>` filters an event's custom property `<key>` (top level of its JSON `properties`,
 *   read from the `property_map` column), an event filter like `event_name`. Its value is compared
 *   as text in one canonical form (`propertyValueSql`): a string as it is, a number as JavaScript
 *   writes the double (`3`, `3.0` and `"3"` all equal the value "3"; `1e21` is "1e+21"), `true`/`false`/`null`, and an object or array
 *   as its JSON text; an event without the key has the value '' (so `not_equals` keeps it).
 *   `is_set` / `is_not_set` (value `[]`) keep the events that carry / lack the key. The key is 1 to 100 printable characters.
 */
import {
  canonicalNumberText,
  type FiltersJson,
  filterParameters,
  filterTypes,
  MAX_FILTER_VALUES,
  MAX_FILTERS,
  MAX_REGEX_LENGTH,
  MAX_VALUE_LENGTH,
  PROPERTY_FILTER_PREFIX,
  propertyFilterTypes,
  propertyKeyProblem,
  tooDeepAt,
  tooDeepMessage,
  type PropertyFilterParameter as WirePropertyFilterParameter,
} from '@pathlight/protocol'
import RE2 from 're2'
import { z } from 'zod'
import { createTtlCache } from '../shared/ttl-cache.js'
import type { SqlFragment } from './compiled-query.js'
import { sessionColumns } from './metrics.js'

/** Filterable event columns: parameter name -> column of `events`. */
export const eventFilterColumns = {
  pathname: 'pathname',
  hostname: 'hostname',
  referrer: 'referrer_domain',
  channel: 'channel',
  country: 'country',
  region: 'region',
  city: 'city',
  browser: 'browser',
  operating_system: 'operating_system',
  device_type: 'device_type',
  language: 'language',
  event_name: 'event_name',
  utm_source: 'utm_source',
  utm_medium: 'utm_medium',
  utm_campaign: 'utm_campaign',
  utm_term: 'utm_term',
  utm_content: 'utm_content',
} as const

/** Filterable session attributes: parameter name -> aggregate over a session's events. */
export const sessionFilterColumns = {
  entry_page: sessionColumns.entry_page,
  exit_page: sessionColumns.exit_page,
} as const

/** Parameters that filter events, and those that filter sessions. */
export type EventFilterParameter = keyof typeof eventFilterColumns
export type SessionFilterParameter = keyof typeof sessionFilterColumns
/** Every filter parameter, in the order error messages list them (each has a column above). */
export { filterParameters }
/** Any filter parameter of a fixed column. */
export type FilterParameter = EventFilterParameter | SessionFilterParameter
/** A custom property filter's parameter: `properties.<key>` (the protocol's). */
export type PropertyFilterParameter = WirePropertyFilterParameter

/** Comparison types (see the module comment for case sensitivity and value semantics). */
export { filterTypes }
/** One comparison type of a column filter. */
export type FilterType = (typeof filterTypes)[number]
/** One comparison type of any filter (`is_set`, `is_not_set`: property filters only). */
export type AnyFilterType = (typeof propertyFilterTypes)[number]

/** One parsed filter. */
export interface Filter {
  parameter: FilterParameter | PropertyFilterParameter
  type: AnyFilterType
  /** 1 to 100 values, each at most 2,048 characters (256 for regex); none for is_set / is_not_set. */
  value: string[]
}

/** The key a property filter's parameter names (`properties.plan` -> `plan`), or null for a column's. */
export function propertyKeyOf(parameter: string): string | null {
  return parameter.startsWith(PROPERTY_FILTER_PREFIX) ? parameter.slice(PROPERTY_FILTER_PREFIX.length) : null
}

/** Bounds: filters per request, values per filter, characters per value and per regex (the protocol's). */
export { MAX_FILTER_VALUES, MAX_FILTERS, MAX_REGEX_LENGTH, MAX_VALUE_LENGTH }

/**
 * General category names in long form (`\p{Letter}`), which JavaScript has and RE2 spells short
 * (`\pL`). The `re2` package rewrites them before compiling, as it rewrites `\uXXXX`, `\cX` and
 * `\p{Script=...}`; ClickHouse passes a pattern to RE2 as it is and refuses them.
 */
const LONG_CATEGORY_NAMES =
  'Uppercase_Letter|Lowercase_Letter|Titlecase_Letter|Cased_Letter|Modifier_Letter|Other_Letter|Letter|' +
  'Nonspacing_Mark|Spacing_Mark|Enclosing_Mark|Mark|Decimal_Number|Letter_Number|Other_Number|Number|' +
  'Connector_Punctuation|Dash_Punctuation|Open_Punctuation|Close_Punctuation|Initial_Punctuation|' +
  'Final_Punctuation|Other_Punctuation|Punctuation|Math_Symbol|Currency_Symbol|Modifier_Symbol|' +
  'Other_Symbol|Symbol|Space_Separator|Line_Separator|Paragraph_Separator|Separator|Control|Format|' +
  'Surrogate|Private_Use|Unassigned|Other'
const JAVASCRIPT_ONLY_ESCAPE = new RegExp(
  `^(?:c[A-Za-z]|u[0-9A-Fa-f{]|[pP]\\{(?:Script=|sc=|(?:${LONG_CATEGORY_NAMES})\\}))`,
)

/** The first escape of `pattern` that only JavaScript understands (e.g. `\u0041`), or null. */
function javaScriptOnlyEscape(pattern: string): string | null {
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== '\\') continue
    const found = JAVASCRIPT_ONLY_ESCAPE.exec(pattern.slice(i + 1, i + 40))
    if (found) return `\\${found[0]}`
    i++ // the escaped character, which may itself be a backslash
  }
  return null
}

/**
 * Why a pattern cannot be used as a regex filter, or null when it can: it must compile with RE2 (the
 * `re2` package, Google's library, the one ClickHouse's `match` uses), so that no pattern reaches the
 * events store only to be refused there. RE2 also bounds a pattern's compiled size, which refuses
 * the costly ones (`a{1001}`, `(a{100}){100}`).
 * @param pattern one value of a `regex` filter
 * @returns a message for the caller (RE2's own reason, or a hint for lookaround, backreferences and
 *   JavaScript-only escapes), or null
 */
export function regexProblem(pattern: string): string | null {
  if (pattern.length > MAX_REGEX_LENGTH) return `regex must be at most ${MAX_REGEX_LENGTH} characters`
  if (/\(\?<?[=!]/.test(pattern)) return 'regex lookahead and lookbehind are not supported (RE2 syntax)'
  if (/\\[1-9]|\\k</.test(pattern)) return 'regex backreferences are not supported (RE2 syntax)'
  const jsEscape = javaScriptOnlyEscape(pattern)
  if (jsEscape) return `invalid regex: ${jsEscape} is JavaScript syntax, not RE2 (use \\x{hex} or \\pL)`
  return re2Problem(pattern)
}

/**
 * Verdicts of RE2 by pattern. A compile costs up to a few hundred ms of this thread for a pattern of
 * large Unicode classes under repetition (`\\pL{300}`); a pattern asked again costs a lookup.
 */
const re2Verdicts = createTtlCache<string, string | null>({ ttlMs: Infinity, maxEntries: 2_000, lru: true })

/** RE2's reason for refusing `pattern`, as `invalid regex: <reason>`, or null when it compiles. */
function re2Problem(pattern: string): string | null {
  const known = re2Verdicts.get(pattern)
  if (known !== undefined) return known
  let verdict: string | null = null
  try {
    new RE2(pattern)
  } catch (error) {
    verdict = `invalid regex: ${(error as Error).message}`
  }
  re2Verdicts.set(pattern, verdict)
  return verdict
}

/** The one pattern several regex values are joined into: any of them matches. */
export const joinedRegex = (values: readonly string[]): string =>
  values.length === 1 ? (values[0] ?? '') : values.map((value) => `(?:${value})`).join('|')

const filterSchema = z
  .object(
    {
      parameter: z.union([z.enum(filterParameters), z.templateLiteral(['properties.', z.string()])], {
        error: (issue) =>
          issue.input === undefined
            ? 'parameter is required'
            : `unknown parameter ${JSON.stringify(issue.input)}; one of ${filterParameters.join(', ')}, or properties.<key>`,
      }),
      type: z.enum(propertyFilterTypes, {
        error: (issue) =>
          issue.input === undefined
            ? 'type is required'
            : `unknown type ${JSON.stringify(issue.input)}; one of ${propertyFilterTypes.join(', ')}`,
      }),
      value: z
        .array(
          z
            .string({ error: 'values must be strings' })
            .max(MAX_VALUE_LENGTH, `values must be at most ${MAX_VALUE_LENGTH} characters`),
          { error: 'value must be an array of strings' },
        )
        .max(MAX_FILTER_VALUES, `value holds at most ${MAX_FILTER_VALUES} values`),
    },
    { error: 'each filter must be an object {parameter, type, value}' },
  )
  .strict()
  .superRefine((filter, ctx) => {
    const key = propertyKeyOf(filter.parameter)
    const keyProblem = key === null ? null : propertyKeyProblem(key)
    if (keyProblem) ctx.addIssue({ code: 'custom', path: ['parameter'], message: keyProblem })
    const presence = filter.type === 'is_set' || filter.type === 'is_not_set'
    if (presence && key === null)
      ctx.addIssue({
        code: 'custom',
        path: ['type'],
        message: `type ${filter.type} applies to properties.<key> only`,
      })
    if (presence && filter.value.length > 0)
      ctx.addIssue({ code: 'custom', path: ['value'], message: `value must be [] for ${filter.type}` })
    if (!presence && filter.value.length === 0)
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'value must hold at least one value' })
    if (filter.type !== 'regex') return
    let valid = true
    for (const [i, pattern] of filter.value.entries()) {
      const problem = regexProblem(pattern)
      if (problem) ctx.addIssue({ code: 'custom', path: ['value', i], message: problem })
      valid &&= problem === null
    }
    // Each value compiles, but all of them together may pass RE2's size bound.
    const joinedProblem = valid && filter.value.length > 1 ? re2Problem(joinedRegex(filter.value)) : null
    if (joinedProblem)
      ctx.addIssue({ code: 'custom', path: ['value'], message: `the values together: ${joinedProblem}` })
  })

const filtersSchema = z
  .array(filterSchema, { error: 'filters must be a JSON array' })
  .max(MAX_FILTERS, `at most ${MAX_FILTERS} filters`)

/** The problem of a `filters` text that is not JSON. */
const NOT_JSON = 'filters must be JSON: an array of {parameter, type, value}'

/** What checking filters finds: the filters, or the problems (each naming the filter's index). */
export type CheckedFilters = { ok: true; filters: Filter[] } | { ok: false; problems: string[] }

/**
 * Check the `filters` parameter as its contract parsed it (the protocol's `FiltersJson`), with a saved
 * segment's filters after the request's own when it names one (`segment-query.ts` puts them there).
 * @returns the filters, or the problems found (each naming the filter's index)
 */
export function checkFiltersParam(param: FiltersJson): CheckedFilters {
  return 'notJson' in param ? { ok: false, problems: [NOT_JSON] } : checkFilters(param.json)
}

/**
 * Check a JSON value as a list of filters (the `filters` parameter's value, a segment's body).
 * @param json e.g. `[{parameter: 'country', type: 'equals', value: ['US']}]`
 * @returns the filters, or the problems found (each naming the filter's index)
 */
export function checkFilters(json: unknown): CheckedFilters {
  if (tooDeepAt(json) !== undefined) return { ok: false, problems: [`filters: ${tooDeepMessage()}`] }
  const parsed = filtersSchema.safeParse(json)
  if (parsed.success) return { ok: true, filters: parsed.data }
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => {
      const [index, ...rest] = issue.path
      if (typeof index !== 'number') return issue.message
      const where = rest.length > 0 ? ` (${rest.join('.')})` : ''
      return `filter ${index}${where}: ${issue.message}`
    }),
  }
}

/** Filters compiled to SQL conditions over `events` (`event`) and over a session's aggregates (`session`). */
export interface CompiledFilters {
  /** AND of the event filters, for a WHERE or an aggregate's condition; null when there are none. */
  event: string | null
  /** AND of the session filters, for a HAVING after grouping events by session; null when there are none. */
  session: string | null
  /**
   * Values of both: `f<i>` (an array, or the regex), `f<i>_<j>` (one starts_with value), where i is
   * the filter's position in the list and j the value's.
   */
  params: Record<string, unknown>
}

/**
 * Compile parsed filters; see the module comment for their meaning.
 * @param column compare every filter with this column instead of its parameter's (a rollup's `value`)
 */
export function compileFilters(filters: readonly Filter[], column?: string): CompiledFilters {
  const event: string[] = []
  const session: string[] = []
  const params: Record<string, unknown> = {}
  filters.forEach((filter, i) => {
    const fragment = compileFilter(filter, `f${i}`, column)
    Object.assign(params, fragment.params)
    if (filter.parameter in sessionFilterColumns) session.push(fragment.sql)
    else event.push(fragment.sql)
  })
  return {
    event: event.length > 0 ? event.join(' AND ') : null,
    session: session.length > 0 ? session.join(' AND ') : null,
    params,
  }
}

function columnOf(parameter: FilterParameter | PropertyFilterParameter): string {
  return parameter in sessionFilterColumns
    ? sessionFilterColumns[parameter as SessionFilterParameter]
    : eventFilterColumns[parameter as EventFilterParameter]
}

/** One filter as a condition; `name` prefixes its parameters; `column` overrides the parameter's. */
export function compileFilter(filter: Filter, name: string, column?: string): SqlFragment {
  const key = propertyKeyOf(filter.parameter)
  if (key !== null && column === undefined) return compilePropertyFilter(filter, key, name)
  return compileColumnFilter(filter, name, column ?? columnOf(filter.parameter))
}

/** JSON types of a number in a properties object (ClickHouse `JSONType`). */
const NUMERIC_JSON = "('Int64', 'UInt64', 'Double')"

/**
 * The canonical text of the custom property `key` of an event: its entry in `events.property_map`
 * (migrations 009 and 012, computed by ClickHouse from `properties` on insert; a key given twice
 * keeps its last value): a string as it is, a number as JavaScript writes the double (`3`, `2.5`,
 * `1e+21`, `1e-7`, `0` for -0), a boolean or null as its JSON word, an object or array as its compact
 * JSON text, '' when the event lacks the key.
 * @param key SQL of the key, a bound String parameter (`{p_key:String}`)
 */
export function propertyValueSql(key: string): string {
  return `property_map[${key}]`
}

/** Whether an event carries the custom property `key` (SQL; `key` as for `propertyValueSql`). */
export function propertyIsSetSql(key: string): string {
  return `mapContains(property_map, ${key})`
}

/**
 * The canonical texts of the values that are JSON numbers ('3', '-2.5', '3.0', '1e21', '1E-7'): each
 * as the property map writes that number (`canonicalNumberText`: '3', '-2.5', '3', '1e+21', '1e-7').
 */
function numericTexts(values: readonly string[]): string[] {
  const texts = new Set<string>()
  for (const text of values) {
    if (!/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text)) continue
    const canonical = canonicalNumberText(Number(text))
    if (canonical !== null) texts.add(canonical)
  }
  return [...texts]
}

/** A `properties.<key>` filter (see the module comment); the key is bound as `<name>_key`. */
function compilePropertyFilter(filter: Filter, key: string, name: string): SqlFragment {
  const keyParam = `{${name}_key:String}`
  const params: Record<string, unknown> = { [`${name}_key`]: key }
  if (filter.type === 'is_set') return { sql: propertyIsSetSql(keyParam), params }
  if (filter.type === 'is_not_set') return { sql: `NOT ${propertyIsSetSql(keyParam)}`, params }
  const value = propertyValueSql(keyParam)
  const inner = compileColumnFilter(filter, name, value)
  Object.assign(params, inner.params)
  if (filter.type !== 'equals' && filter.type !== 'not_equals') return { sql: inner.sql, params }
  // A number equals a value of the same number in any spelling ('3.0' and 3, '3' and 3.0, '1e21'
  // and 1e+21): the column holds a number in its canonical text, so the filter's numbers are compared
  // in that text, and only events whose value is such a text parse `properties` to check that it is
  // a number, not a string (short-circuit evaluation of AND).
  const texts = numericTexts(filter.value)
  if (texts.length === 0) return { sql: inner.sql, params }
  params[`${name}_numbers`] = texts
  const equal =
    `(${value} IN {${name}:Array(String)} OR ` +
    `(${value} IN {${name}_numbers:Array(String)} AND JSONType(properties, ${keyParam}) IN ${NUMERIC_JSON}))`
  return { sql: filter.type === 'equals' ? equal : `NOT ${equal}`, params }
}

/** A filter on one column (or SQL expression) `column`. */
function compileColumnFilter(filter: Filter, name: string, column: string): SqlFragment {
  const array = `{${name}:Array(String)}`
  switch (filter.type) {
    case 'equals':
      return { sql: `${column} IN ${array}`, params: { [name]: filter.value } }
    case 'not_equals':
      return { sql: `${column} NOT IN ${array}`, params: { [name]: filter.value } }
    case 'contains':
      return {
        sql: `multiSearchAnyCaseInsensitiveUTF8(${column}, ${array})`,
        params: { [name]: filter.value },
      }
    case 'not_contains':
      return {
        sql: `NOT multiSearchAnyCaseInsensitiveUTF8(${column}, ${array})`,
        params: { [name]: filter.value },
      }
    case 'starts_with':
      return anyOf(filter.value, name, (param) => `startsWith(${column}, ${param})`)
    case 'regex':
      // One pattern for all values: ClickHouse rewrites an OR of match() calls into multiMatchAny,
      // which fails on aggregates (entry_page) in 26.7.
      return {
        sql: `match(${column}, {${name}:String})`,
        params: {
          [name]: joinedRegex(filter.value),
        },
      }
    case 'is_set':
    case 'is_not_set':
      // Parsed only for property filters, which compilePropertyFilter answers.
      throw new Error(`${filter.type} applies to property filters only`)
  }
}

/** OR of one condition per value, each value its own String parameter `<name>_<j>`. */
function anyOf(values: readonly string[], name: string, condition: (param: string) => string): SqlFragment {
  const params: Record<string, unknown> = {}
  const parts = values.map((value, j) => {
    params[`${name}_${j}`] = value
    return condition(`{${name}_${j}:String}`)
  })
  return { sql: parts.length === 1 ? (parts[0] ?? '') : `(${parts.join(' OR ')})`, params }
}
