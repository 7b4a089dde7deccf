/**
 * A resolved filter tree (`report-query.ts`) as one SQL condition over a joined event row
 * (`raw-sql.ts`), its values bound. Per operator: `is` the value among the values; `contains` a
 * value is a substring; `matches` an RE2 pattern matches somewhere (the values joined with `|`);
 * `case_sensitive: false` compares lower-cased (a pattern gets `(?i)`); the `_not` forms negate and,
 * on a custom property, also leave out the events without the key (as Plausible). `visit:country_name`
 * compares country names in English (`Intl.DisplayNames`), turned into their codes before the SQL.
 */

import { goalCondition } from '../query/goal-condition.js'
import { countryCodesNamed } from './country-names.js'
import { dimensionSql } from './dimension-sql.js'
import type { Condition, FilterNode, QueryGoal } from './report-query.js'

/** Bound values, named `q0`, `q1`, ... by `bind`. */
export interface Binder {
  params: Record<string, unknown>
  /** The goals `event:goal` conditions and dimensions read. */
  goals: readonly QueryGoal[]
  bind(value: unknown, type: string): string
  /** The range's condition on `events` (set by `raw-sql.ts` `scopeSql`), which `has_done` reads. */
  scope?: string
}

/** A fresh binder (one per query). */
export function createBinder(goals: readonly QueryGoal[] = [], prefix = 'q'): Binder {
  const params: Record<string, unknown> = {}
  let next = 0
  return {
    params,
    goals,
    bind(value, type) {
      const name = `${prefix}${next++}`
      params[name] = value
      return `{${name}:${type}}`
    },
  }
}

/**
 * @param rewrite a dimension to read instead of another (the session metrics read `event:page` as
 *   `visit:entry_page`)
 */
export function filterSql(node: FilterNode, binder: Binder, rewrite: Record<string, string> = {}): string {
  switch (node.kind) {
    case 'and':
    case 'or':
      if (node.filters.length === 0) return node.kind === 'and' ? '1' : '0'
      return `(${node.filters.map((f) => filterSql(f, binder, rewrite)).join(node.kind === 'and' ? ' AND ' : ' OR ')})`
    case 'not':
      return `NOT (${filterSql(node.filter, binder, rewrite)})`
    case 'has_done':
    case 'has_not_done': {
      // The visit's sessions with an event of the range passing the inner tree (event dimensions only).
      if (binder.scope === undefined) throw new Error('has_done needs the scope (scopeSql binds it)')
      const sessions = `cityHash64(session_id) IN (SELECT cityHash64(session_id) FROM events WHERE ${binder.scope} AND type IN ('pageview', 'custom_event', 'outbound') AND ${filterSql(node.filter, binder)})`
      return node.kind === 'has_done' ? sessions : `NOT (${sessions})`
    }
    case 'condition':
      return conditionSql({ ...node, dimension: rewrite[node.dimension] ?? node.dimension }, binder)
  }
}

function conditionSql(condition: Condition, binder: Binder): string {
  if (condition.dimension === 'event:goal') {
    const names = new Set(
      matchingNames(
        binder.goals.map((g) => g.name),
        condition,
      ),
    )
    const matched = binder.goals.flatMap((goal, i) => (names.has(goal.name) ? [goalSql(binder, i)] : []))
    const any = matched.length === 0 ? '0' : `(${matched.join(' OR ')})`
    return condition.operator.endsWith('_not') ? `NOT ${any}` : any
  }
  if (condition.dimension === 'visit:country_name') {
    const codes = countryCodesNamed(condition.values, condition.operator, condition.caseSensitive)
    const negated = condition.operator.endsWith('_not')
    const inner = `s_country IN ${binder.bind(codes, 'Array(String)')}`
    return negated ? `NOT (${inner})` : inner
  }
  const property = condition.dimension.startsWith('event:props:')
  const key = property ? binder.bind(condition.dimension.slice('event:props:'.length), 'String') : undefined
  const column = dimensionSql(condition.dimension, { key, stored: condition.stored })
  const cs = condition.caseSensitive
  const expr = cs ? column : `lowerUTF8(${column})`
  const values = cs ? condition.values : condition.values.map((v) => v.toLowerCase())
  let positive: string
  switch (condition.operator) {
    case 'is':
    case 'is_not':
      positive = `${expr} IN ${binder.bind(values, 'Array(String)')}`
      break
    case 'contains':
    case 'contains_not':
      positive = `multiSearchAny(${expr}, ${binder.bind(values, 'Array(String)')})`
      break
    default: {
      const pattern = `${cs ? '' : '(?i)'}${condition.values.map((v) => `(?:${v})`).join('|')}`
      positive = `match(${column}, ${binder.bind(pattern, 'String')})`
    }
  }
  if (!condition.operator.endsWith('_not')) return positive
  return property ? `(mapContains(property_map, ${key}) AND NOT (${positive}))` : `NOT (${positive})`
}

/** The SQL of the `i`th goal of the binder's goals (its parameters bound as `goal<i>_*`). */
export function goalSql(binder: Binder, i: number): string {
  const fragment = goalCondition((binder.goals[i] as QueryGoal).definition, `goal${i}`)
  Object.assign(binder.params, fragment.params)
  return `(${fragment.sql})`
}

/** The names among `names` a condition's positive form matches (goal names are matched here, not in SQL). */
export function matchingNames(names: readonly string[], condition: Condition): string[] {
  const fold = (text: string) => (condition.caseSensitive ? text : text.toLowerCase())
  const values = condition.values.map(fold)
  return names.filter((name) => {
    if (condition.operator === 'is' || condition.operator === 'is_not') return values.includes(fold(name))
    if (condition.operator === 'contains' || condition.operator === 'contains_not') {
      return values.some((v) => fold(name).includes(v))
    }
    return condition.values.some((v) => new RegExp(v, condition.caseSensitive ? 'u' : 'iu').test(name))
  })
}
