/**
 * User journeys: the most common page sequences of the counted sessions, and their page-to-page
 * transitions for a Sankey chart. Definitions (also in the README, "User journeys"):
 *
 * - A session's page sequence is the pathnames of its pageviews in the range, in `EVENT_ORDER`
 *   (`metrics.ts`: by time, equal timestamps by event id), with consecutive repeats collapsed
 *   (`/a /a /b /a` is `/a /b /a`: a reload or a same-page navigation is not a step).
 * - Sessions are the counted sessions of the scope (`sessions-subquery.ts`): event filters keep a
 *   session when one of its events passes them, and then all its pageviews in the range make its
 *   sequence; `entry_page`/`exit_page` filters keep or drop whole sessions.
 * - The sequence is cut to at most `steps` pages (2..6):
 *   - neither path given: its first `steps` pages;
 *   - `startPath`: the `steps` pages from the first occurrence of `startPath`;
 *   - `endPath`: the up-to-`steps` pages ending at the first occurrence of `endPath`;
 *   - both: from the first occurrence of `startPath` to the next occurrence of `endPath` after it,
 *     kept only when that segment has at most `steps` pages.
 *   A session lacking a given start/end path (or, with both, the end after the start) has no journey.
 * - A journey has at least two pages: a session whose cut sequence is one page (one pageview, only
 *   reloads, `startPath` as its last page, `endPath` as its first page) is not counted.
 * - `data` holds the `limit` journeys with the most sessions (ties by path, ascending); `links` are the
 *   transitions of exactly those journeys (step numbers 1-based positions in the cut path), so every
 *   figure of the Sankey adds up to the table; `total` and `sessions` count all journeys.
 */
import type { JourneyLink, JourneyPath } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { EVENT_ORDER_KEY } from './metrics.js'
import { filtersOf, type ReportScope, scopeOf } from './report-scope.js'
import { runReport } from './run-report.js'
import { sessionsSubquery } from './sessions-subquery.js'

/** Bounds of `steps` and `limit`, and their defaults (the protocol's). */
export {
  DEFAULT_JOURNEY_LIMIT,
  DEFAULT_JOURNEY_STEPS,
  MAX_JOURNEY_LIMIT,
  MAX_JOURNEY_STEPS,
  MIN_JOURNEY_STEPS,
} from '@pathlight/protocol'

/** What to cut the sequences to. */
export interface JourneyOptions {
  /** Pages per journey, 2..6. */
  steps: number
  /** Journeys start at the first pageview of this pathname (exact match). */
  startPath?: string
  /** Journeys end at the first pageview of this pathname (after `startPath` when both are given). */
  endPath?: string
  /** Journeys returned, 1..200. */
  limit: number
}

/** The answer: the top journeys, their transitions, and the count of all journeys. */
export interface Journeys {
  data: JourneyPath[]
  links: JourneyLink[]
  /** Distinct journeys (paths) over all sessions, not only those returned. */
  total: number
  /** Sessions with a journey, over all journeys. */
  sessions: number
}

/**
 * The per-session cut path, as `[<extra columns>,] path` over a row holding `seq` (the collapsed
 * sequence), for each combination of start and end path. Positions are 1-based (`indexOf`).
 */
function cutPath(options: JourneyOptions): { columns: string[]; path: string; where: string } {
  const hasStart = options.startPath !== undefined
  const hasEnd = options.endPath !== undefined
  if (hasStart && hasEnd) {
    return {
      columns: [
        'indexOf(seq, {start_path:String}) AS start_at',
        'indexOf(arraySlice(seq, start_at + 1), {end_path:String}) AS end_after',
      ],
      path: 'arraySlice(seq, start_at, end_after + 1)',
      where: 'start_at > 0 AND end_after > 0 AND end_after + 1 <= {steps:UInt8}',
    }
  }
  if (hasStart) {
    return {
      columns: ['indexOf(seq, {start_path:String}) AS start_at'],
      path: 'arraySlice(seq, start_at, {steps:UInt8})',
      where: 'start_at > 0',
    }
  }
  if (hasEnd) {
    return {
      columns: ['indexOf(seq, {end_path:String}) AS end_at'],
      path: 'arraySlice(seq, greatest(1, toInt64(end_at) - {steps:UInt8} + 1), least(end_at, {steps:UInt8}))',
      where: 'end_at > 0',
    }
  }
  return { columns: [], path: 'arraySlice(seq, 1, {steps:UInt8})', where: '1' }
}

/**
 * Bytes of GROUP BY state beyond which ClickHouse spills the per-session arrays to disk: bounds the
 * query's memory on long ranges (a busy site's arrays over months exceed it; bench/README.md "query: the
 * analytics read side") at some speed.
 */
export const JOURNEY_GROUP_BY_SPILL_BYTES = 256 * 1024 * 1024

/**
 * One query: per counted session its pageview pathnames sorted by `EVENT_ORDER_KEY`, collapsed,
 * cut; then grouped by path. Rows: `{path: string[], sessions, total_paths, total_sessions}`.
 * Without event filters only pageview rows are read (a session's other events cannot decide whether
 * it counts, and the `entry_page`/`exit_page` filters look at pageviews only).
 */
export function compileJourneys(scope: ReportScope, options: JourneyOptions): CompiledQuery {
  const filters = filtersOf(scope)
  const cut = cutPath(options)
  // Pathnames sorted by the events' order, packed into one number: two plain arrays sort faster than
  // one of tuples. Without event filters only pageview rows are read, so the -If is needed only with them.
  const onlyPageviews = filters.event === null
  const collect = (expr: string) =>
    onlyPageviews ? `groupArray(${expr})` : `groupArrayIf(${expr}, type = 'pageview')`
  const pages = {
    sql: `arraySort((p, k) -> k, ${collect('pathname')}, ${collect(EVENT_ORDER_KEY)})`,
    as: 'pages',
  }
  return {
    sql: [
      'SELECT path, count() AS sessions,',
      '  count() OVER () AS total_paths, sum(count()) OVER () AS total_sessions',
      'FROM (',
      `  SELECT ${[...cut.columns, `${cut.path} AS path`].join(', ')}`,
      '  FROM (',
      '    SELECT arrayFilter((p, i) -> i = 1 OR p != pages[i - 1], pages, arrayEnumerate(pages)) AS seq',
      '    FROM (',
      sessionsSubquery(filters, [pages], onlyPageviews ? "type = 'pageview'" : undefined),
      '    )',
      '    WHERE length(pages) >= 2',
      '  )',
      `  WHERE ${cut.where}`,
      ')',
      'WHERE length(path) >= 2',
      'GROUP BY path',
      'ORDER BY sessions DESC, path ASC',
      'LIMIT {limit:UInt32}',
      `SETTINGS max_bytes_before_external_group_by = ${JOURNEY_GROUP_BY_SPILL_BYTES}`,
    ].join('\n'),
    params: {
      ...scopeOf(scope).params,
      ...filters.params,
      steps: options.steps,
      ...(options.startPath === undefined ? {} : { start_path: options.startPath }),
      ...(options.endPath === undefined ? {} : { end_path: options.endPath }),
      limit: options.limit,
    },
  }
}

/**
 * The transitions of `paths`: for each path, each pair of consecutive pages, from step i to step i+1
 * (1-based), weighted by the path's sessions and summed over equal (from, to) pairs. Ordered by step,
 * then sessions descending, then from and to pathname.
 */
export function journeyLinks(paths: readonly JourneyPath[]): JourneyLink[] {
  const links = new Map<string, JourneyLink>()
  for (const { path, sessions } of paths) {
    for (let i = 1; i < path.length; i++) {
      const from = { step: i, pathname: path[i - 1] as string }
      const to = { step: i + 1, pathname: path[i] as string }
      const key = JSON.stringify([i, from.pathname, to.pathname])
      const link = links.get(key)
      if (link) link.sessions += sessions
      else links.set(key, { from, to, sessions })
    }
  }
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  return [...links.values()].sort(
    (a, b) =>
      a.from.step - b.from.step ||
      b.sessions - a.sessions ||
      byText(a.from.pathname, b.from.pathname) ||
      byText(a.to.pathname, b.to.pathname),
  )
}

/** The journeys of the scope (see the module comment). */
export async function queryJourneys(
  events: EventsStore,
  scope: ReportScope,
  options: JourneyOptions,
): Promise<Journeys> {
  const rows = await runReport<{
    path: string[]
    sessions: number
    total_paths: number
    total_sessions: number
  }>(events, compileJourneys(scope, options), 'journeys')
  const data = rows.map((row) => ({ path: row.path, sessions: Number(row.sessions) }))
  const first = rows[0]
  return {
    data,
    links: journeyLinks(data),
    total: first ? Number(first.total_paths) : 0,
    sessions: first ? Number(first.total_sessions) : 0,
  }
}
