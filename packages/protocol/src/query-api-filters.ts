/**
 * The filters of the Query API (`POST /api/v2/query`), as Plausible's Stats API v2 writes them, parsed
 * into a tree once:
 * - a condition `[operator, dimension, values, modifiers?]`: operator `is`, `is_not`, `contains`,
 *   `contains_not`, `matches`, `matches_not` (RE2, the server checks the pattern), `values` 1 to
 *   `MAX_QUERY_FILTER_VALUES` strings, `modifiers` `{case_sensitive?: boolean}` (default true);
 * - `["and", [filter, ...]]`, `["or", [filter, ...]]` (at least one each), `["not", filter]`;
 * - `["is", "segment", [id]]`: a saved segment of the site (the server expands it);
 * - `["has_done", filter]`, `["has_not_done", filter]`: Plausible's behavioural filters, the visits
 *   with (without) an event passing the inner filter, which names event dimensions only.
 * Dimensions are the filterable ones of `query-api-request.ts` (no `time*`).
 */

/** The operators of a condition. */
export const queryApiOperators = [
  'is',
  'is_not',
  'contains',
  'contains_not',
  'matches',
  'matches_not',
] as const
/** One condition operator. */
export type QueryApiOperator = (typeof queryApiOperators)[number]

/** Values per condition, and the length of one value, in characters. */
export const MAX_QUERY_FILTER_VALUES = 100
export const MAX_QUERY_FILTER_VALUE_LENGTH = 2048
/** How deep `and`/`or`/`not` may nest, and how many conditions a request may hold in all. */
export const MAX_QUERY_FILTER_DEPTH = 8
export const MAX_QUERY_FILTER_CONDITIONS = 50

/** A parsed filter: a condition, a saved segment, or a combination. */
export type QueryApiFilter =
  | {
      kind: 'condition'
      operator: QueryApiOperator
      dimension: string
      values: string[]
      caseSensitive: boolean
    }
  | { kind: 'segment'; segmentId: number }
  | { kind: 'and' | 'or'; filters: QueryApiFilter[] }
  | { kind: 'not'; filter: QueryApiFilter }
  | { kind: 'has_done' | 'has_not_done'; filter: QueryApiFilter }

/** One problem of a filter: the path below `filters` (`[0, 1, 2]`) and the message. */
export interface FilterProblem {
  path: (string | number)[]
  message: string
}

/**
 * Parse one filter of the body.
 * @param isDimension whether a name is a filterable dimension
 * @returns the tree, or the first problem found (its path relative to this filter)
 */
export function parseQueryApiFilter(
  raw: unknown,
  isDimension: (name: string) => boolean,
  depth = 0,
  count = { conditions: 0 },
): { ok: true; filter: QueryApiFilter } | { ok: false; problem: FilterProblem } {
  const fail = (path: (string | number)[], message: string) => ({
    ok: false as const,
    problem: { path, message },
  })
  if (!Array.isArray(raw) || raw.length < 2) {
    return fail(
      [],
      'a filter is an array: [operator, dimension, values] or [and|or, [filters]] or [not, filter]',
    )
  }
  if (depth > MAX_QUERY_FILTER_DEPTH) return fail([], `filters nest at most ${MAX_QUERY_FILTER_DEPTH} deep`)
  const [operator] = raw
  if (operator === 'and' || operator === 'or') {
    if (raw.length !== 2 || !Array.isArray(raw[1]) || raw[1].length === 0) {
      return fail([1], `${operator} takes one non-empty array of filters`)
    }
    const filters: QueryApiFilter[] = []
    for (const [i, child] of (raw[1] as unknown[]).entries()) {
      const parsed = parseQueryApiFilter(child, isDimension, depth + 1, count)
      if (!parsed.ok) return fail([1, i, ...parsed.problem.path], parsed.problem.message)
      filters.push(parsed.filter)
    }
    return { ok: true, filter: { kind: operator, filters } }
  }
  if (operator === 'has_done' || operator === 'has_not_done') {
    if (raw.length !== 2) return fail([], `${operator} takes one filter`)
    const parsed = parseQueryApiFilter(raw[1], isDimension, depth + 1, count)
    if (!parsed.ok) return fail([1, ...parsed.problem.path], parsed.problem.message)
    const visit = conditionsOf(parsed.filter).find((c) => !c.dimension.startsWith('event:'))
    if (visit || holdsSegment(parsed.filter)) {
      return fail([1], `${operator} takes event dimensions only, not ${visit?.dimension ?? 'a segment'}`)
    }
    return { ok: true, filter: { kind: operator, filter: parsed.filter } }
  }
  if (operator === 'not') {
    if (raw.length !== 2) return fail([], 'not takes one filter')
    const parsed = parseQueryApiFilter(raw[1], isDimension, depth + 1, count)
    if (!parsed.ok) return fail([1, ...parsed.problem.path], parsed.problem.message)
    return { ok: true, filter: { kind: 'not', filter: parsed.filter } }
  }
  if (typeof operator !== 'string' || !(queryApiOperators as readonly string[]).includes(operator)) {
    return fail(
      [0],
      `unknown operator ${JSON.stringify(operator)}: one of and, or, not, has_done, has_not_done, ${queryApiOperators.join(', ')}`,
    )
  }
  if (raw.length < 3 || raw.length > 4)
    return fail([], `${operator} takes a dimension, values and optional modifiers`)
  const [, dimension, values, modifiers] = raw
  if (typeof dimension !== 'string') return fail([1], 'the dimension is a string')
  if (dimension === 'segment') {
    if (operator !== 'is') return fail([0], 'a segment is filtered with is only')
    const [id] = Array.isArray(values) && values.length === 1 ? values : []
    if (!Number.isSafeInteger(id) || (id as number) < 1)
      return fail([2], 'a segment filter takes one segment id')
    return { ok: true, filter: { kind: 'segment', segmentId: id as number } }
  }
  if (!isDimension(dimension)) return fail([1], `invalid filter dimension ${JSON.stringify(dimension)}`)
  if (!Array.isArray(values) || values.length === 0 || values.length > MAX_QUERY_FILTER_VALUES) {
    return fail([2], `values are an array of 1 to ${MAX_QUERY_FILTER_VALUES} strings`)
  }
  for (const [i, value] of values.entries()) {
    if (typeof value !== 'string') return fail([2, i], 'each value is a string')
    if (value.length > MAX_QUERY_FILTER_VALUE_LENGTH) {
      return fail([2, i], `a value is at most ${MAX_QUERY_FILTER_VALUE_LENGTH} characters`)
    }
  }
  let caseSensitive = true
  if (modifiers !== undefined) {
    if (typeof modifiers !== 'object' || modifiers === null || Array.isArray(modifiers)) {
      return fail([3], 'modifiers are an object: {case_sensitive: boolean}')
    }
    for (const [name, value] of Object.entries(modifiers)) {
      if (name !== 'case_sensitive') return fail([3, name], `unknown modifier ${name}`)
      if (typeof value !== 'boolean') return fail([3, name], 'case_sensitive is a boolean')
      caseSensitive = value
    }
  }
  count.conditions += 1
  if (count.conditions > MAX_QUERY_FILTER_CONDITIONS) {
    return fail([], `at most ${MAX_QUERY_FILTER_CONDITIONS} conditions in all`)
  }
  return {
    ok: true,
    filter: { kind: 'condition', operator: operator as QueryApiOperator, dimension, values, caseSensitive },
  }
}

/** Whether a filter tree holds a saved segment. */
export function holdsSegment(filter: QueryApiFilter): boolean {
  if (filter.kind === 'segment') return true
  if (filter.kind === 'condition') return false
  return 'filters' in filter ? filter.filters.some(holdsSegment) : holdsSegment(filter.filter)
}

/** Every condition of a tree, depth first (segments not expanded). */
export function conditionsOf(filter: QueryApiFilter): Extract<QueryApiFilter, { kind: 'condition' }>[] {
  switch (filter.kind) {
    case 'condition':
      return [filter]
    case 'segment':
      return []
    case 'not':
    case 'has_done':
    case 'has_not_done':
      return conditionsOf(filter.filter)
    default:
      return filter.filters.flatMap(conditionsOf)
  }
}
