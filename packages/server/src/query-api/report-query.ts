/**
 * `ReportQuery`: one analytics read, parsed and resolved once, from which the planner and the SQL
 * work and nothing below re-parses text or JSON. The Query API builds it from its parsed body
 * (`build-report-query.ts`); it is shaped so that the dashboard's and v1's reports can be carried by
 * it too (a site, a half-open UTC range with its time zone, a filter tree, dimensions, metrics, an
 * order, a page, a comparison).
 */
import type { QueryApiMetric, QueryApiOperator } from '@pathlight/protocol'
import type { GoalDefinition } from '../goals/goal.js'

/**
 * One condition of a resolved filter tree. `dimension` is a Query API dimension (`event:page`,
 * `visit:country`, `event:props:plan`); `stored` true compares the stored column as the dashboard's
 * filters do (a saved segment's filters), not the Plausible name derived from it (`Desktop`, `Mac`).
 * A `matches` condition's values have passed the RE2 check.
 */
export interface Condition {
  kind: 'condition'
  operator: QueryApiOperator
  dimension: string
  values: string[]
  caseSensitive: boolean
  stored?: boolean
}

/** A resolved filter: segments expanded into their conditions. */
export type FilterNode =
  | Condition
  | { kind: 'and' | 'or'; filters: FilterNode[] }
  | { kind: 'not'; filter: FilterNode }
  | { kind: 'has_done' | 'has_not_done'; filter: FilterNode }

/**
 * A range: `from <= timestamp < to`, epoch ms, and, when it is whole days in the time zone, those
 * days (`YYYY-MM-DD`, `lastDay` inclusive).
 */
export interface ResolvedRange {
  from: number
  to: number
  days: { firstDay: string; lastDay: string } | null
}

/** The bucket of a time dimension (`time` resolved by the range's length). */
export type TimeBucket = 'hour' | 'day' | 'week' | 'month'

/** One read, resolved. */
export interface ReportQuery {
  siteId: number
  /** The canonical IANA name of the time zone the range and the buckets are in. */
  timeZone: string
  range: ResolvedRange
  /** The compared range (`include.comparisons`), or null. */
  comparison: ResolvedRange | null
  /** The filters, ANDed (segments expanded). */
  filters: FilterNode[]
  dimensions: string[]
  /** The bucket of the time dimension among `dimensions`, if any. */
  timeBucket: TimeBucket | null
  metrics: QueryApiMetric[]
  orderBy: [string, 'asc' | 'desc'][]
  limit: number
  offset: number
  include: { timeLabels: boolean; totalRows: boolean }
  /** The site's goals by name, loaded when `event:goal` is filtered or a dimension (else empty). */
  goals: QueryGoal[]
}

/** A goal as `event:goal` names it: its name and what it matches. */
export interface QueryGoal {
  name: string
  definition: GoalDefinition
}

/** The tree without its `event:goal` conditions (each read as true): the visitors a rate divides by. */
export function withoutGoals(nodes: readonly FilterNode[]): FilterNode[] {
  const strip = (node: FilterNode): FilterNode => {
    if (node.kind === 'condition')
      return node.dimension === 'event:goal' ? { kind: 'and', filters: [] } : node
    if ('filter' in node) return { kind: node.kind, filter: strip(node.filter) }
    return { kind: node.kind, filters: node.filters.map(strip) }
  }
  return nodes.map(strip)
}

/** Every condition of a tree. */
export function conditionsIn(nodes: readonly FilterNode[]): Condition[] {
  return nodes.flatMap((node) => {
    if (node.kind === 'condition') return [node]
    if ('filter' in node) return conditionsIn([node.filter])
    return conditionsIn(node.filters)
  })
}
