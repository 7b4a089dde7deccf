/**
 * Keeping the rollups equal to the raw events when whole sessions are erased (a data subject's
 * erasure, `query/visitor-events.ts`): every event of those sessions is gone from `events`, and this
 * brings every rollup table to what the views would have written had those events never been stored.
 *
 * - Rows per session (`session_hours`, `session_dimension_hours`, `session_summaries`,
 *   `session_page_times`): the erased
 *   sessions' rows are deleted by session hash, and the visitor's by visitor hash; no other session's
 *   row changes. Last, so that an erasure cut off by a failure can be finished: the visitor's rows
 *   left there name the hours still to correct (`leftoverHours`).
 * - Rows that mix sessions (`event_hours`' counts and visitor and session states, which cannot be
 *   subtracted from): the erased events' hours are deleted and rolled up again from the events left in
 *   them; `page_days` (a view on `event_hours`) the same for their UTC days, from `event_hours`;
 *   `page_months` of their months deleted and the months marked changed, so readers take them from
 *   `page_days` until the fold pass seals them again; `referrer_domain_days` of their days listed again
 *   from the events left, and `pathname_months` of their months from the refilled `page_days`.
 *
 * Month by month, so that no statement's parameters grow with the visitor's history.
 *
 * Not atomic: a report running meanwhile may see some tables before and others after. A tracked event
 * stored in one of those hours between the delete and the refill of it would be rolled up twice (its
 * view's row and the refill's), so the totals of the refilled hours and days are compared with their
 * sources afterwards and any that differ are refilled again.
 */
import type { EventsStore } from '../../storage/events/events-store.js'
import { eventHoursInsert } from '../../storage/events/rollup-schema/event-hours.js'
import { pageDaysInsert } from '../../storage/events/rollup-schema/page-days.js'
import { PATHNAME_MONTHS, pathnameMonthsInsert } from '../../storage/events/rollup-schema/pathname-months.js'
import {
  REFERRER_DOMAIN_DAYS,
  referrerDomainDaysInsert,
} from '../../storage/events/rollup-schema/referrer-domain-days.js'

/** What was erased: the visitor, their sessions (all their events) and the UTC hours of those events. */
export interface ErasedSessions {
  siteId: number
  /** The visitor (`user_id`), none of whose events remain. */
  userId: string
  /** Session ids, each of a session none of whose events remain. */
  sessions: readonly string[]
  /** Start of every UTC hour an erased event was in, `YYYY-MM-DD hh:00:00` (ClickHouse DateTime, UTC). */
  hours: readonly string[]
}

/** Refills of `event_hours` and `page_days` tried before giving up on a racing insert. */
const REFILL_ATTEMPTS = 3

/** Session ids bound in one statement (a ClickHouse server takes parameters in the URL). */
export const SESSIONS_PER_STATEMENT = 1_000

const SITE = 'site_id = {site:UInt32}'
const ERASED_KEYS = 'session_key IN (SELECT cityHash64(arrayJoin({sessions:Array(String)})))'
/** The visitor's rows, as the rollups hash them (`visitor`: cityHash64 of `user_id`). */
const VISITOR_ROWS = 'visitor = cityHash64({user:String})'
const HOURS = "{hours:Array(DateTime('UTC'))}"
const DAYS = "{days:Array(DateTime('UTC'))}"
const MONTHS = "{months:Array(DateTime('UTC'))}"
/** Events of the erased hours (bounded by the first and last, so the primary key prunes). */
const EVENTS_OF_HOURS = `${SITE} AND timestamp >= {first:DateTime('UTC')} AND timestamp < {last:DateTime('UTC')} + INTERVAL 1 HOUR
  AND toDateTime(toStartOfHour(timestamp), 'UTC') IN ${HOURS}`
const EVENTS_OF_DAYS = `${SITE} AND timestamp >= toStartOfDay({first:DateTime('UTC')}) AND timestamp < toStartOfDay({last:DateTime('UTC')}) + INTERVAL 1 DAY
  AND toStartOfDay(timestamp) IN ${DAYS}`

const startOfDay = (hour: string) => `${hour.slice(0, 10)} 00:00:00`
const startOfMonth = (hour: string) => `${hour.slice(0, 7)}-01 00:00:00`

/**
 * Bring the rollups of `erased.siteId` in line with its events after the visitor's events and
 * `erased.sessions` were deleted from `events` (see the file's doc). Resolves once every table reads
 * as the events do.
 * @throws the store's error: the per-session rows go last, so the visitor's rows left name the hours
 *   still to correct; pass `leftoverHours` as `hours` to finish
 * @throws Error when a refilled hour or day still differs from its source after the retries
 */
export async function eraseSessionsFromRollups(events: EventsStore, erased: ErasedSessions): Promise<void> {
  const byMonth = new Map<string, string[]>()
  for (const hour of [...new Set(erased.hours)].sort()) {
    const month = startOfMonth(hour)
    byMonth.set(month, [...(byMonth.get(month) ?? []), hour])
  }
  for (const [month, hours] of byMonth) await eraseFromMonth(events, erased, month, hours)
  // After their hours: a fold running meanwhile may have summarised them once more from those.
  const visitor = { site: erased.siteId, user: erased.userId }
  for (const table of ['session_summaries', 'session_page_times']) {
    await events.command(`DELETE FROM ${table} WHERE ${SITE} AND ${VISITOR_ROWS}`, visitor)
    for (const sessions of chunks(erased.sessions)) {
      await events.command(`DELETE FROM ${table} WHERE ${SITE} AND ${ERASED_KEYS}`, {
        site: erased.siteId,
        sessions,
      })
    }
  }
}

/**
 * The hours in which the rollups still hold rows of the visitor (`session_hours`,
 * `session_dimension_hours`), and whether `session_summaries` does: what an erasure cut off by a
 * failure left to correct, once the visitor's events are gone. `YYYY-MM-DD hh:00:00`, UTC.
 */
export async function leftoverHours(
  events: EventsStore,
  siteId: number,
  userId: string,
): Promise<{ hours: string[]; summaries: boolean }> {
  const [row] = await events.query<{ hours: string[]; summaries: number | string }>(
    `SELECT (SELECT groupUniqArray(toString(hour)) FROM (
         SELECT hour FROM session_hours WHERE ${SITE} AND ${VISITOR_ROWS}
         UNION ALL SELECT hour FROM session_dimension_hours WHERE ${SITE} AND ${VISITOR_ROWS})) AS hours,
       (SELECT count() FROM session_summaries WHERE ${SITE} AND ${VISITOR_ROWS}) AS summaries`,
    { site: siteId, user: userId },
  )
  return { hours: row?.hours ?? [], summaries: Number(row?.summaries ?? 0) > 0 }
}

/** The erasure of one UTC month's `hours` (so that no statement's parameters grow with the history). */
async function eraseFromMonth(
  events: EventsStore,
  erased: ErasedSessions,
  month: string,
  hours: string[],
): Promise<void> {
  const days = [...new Set(hours.map(startOfDay))]
  const params = {
    site: erased.siteId,
    user: erased.userId,
    hours,
    days,
    months: [month],
    first: hours[0],
    last: hours[hours.length - 1],
  }
  // Marked first, so that a seal never takes the month from days that are being rebuilt.
  await events.command(
    `INSERT INTO page_month_seals (site_id, month, changed_at, sealed_at)
     SELECT {site:UInt32}, arrayJoin(${MONTHS}), now64(3, 'UTC'), toDateTime64(0, 3, 'UTC')`,
    params,
  )
  await events.command(`DELETE FROM ${REFERRER_DOMAIN_DAYS} WHERE ${SITE} AND day IN ${DAYS}`, params)
  await events.command(referrerDomainDaysInsert(EVENTS_OF_DAYS), params)
  await events.command(`DELETE FROM page_months WHERE ${SITE} AND month IN ${MONTHS}`, params)
  let refill = { hours, days }
  for (let attempt = 1; ; attempt++) {
    await refillHours(events, { ...params, ...refill })
    refill = await unequalTotals(events, { ...params, ...refill })
    if (refill.hours.length === 0 && refill.days.length === 0) break
    if (attempt === REFILL_ATTEMPTS) {
      throw new Error(
        `Rollups of site ${erased.siteId} still differ from its events after erasing sessions (hours ${refill.hours.join(', ')}; days ${refill.days.join(', ')})`,
      )
    }
  }
  // The month's pathnames listed again from its days, which no longer hold the visitor's pageviews.
  await events.command(`DELETE FROM ${PATHNAME_MONTHS} WHERE ${SITE} AND month IN ${MONTHS}`, params)
  await events.command(
    pathnameMonthsInsert(`${SITE} AND toDateTime(toStartOfMonth(day), 'UTC') IN ${MONTHS}`),
    params,
  )
  for (const table of ['session_hours', 'session_dimension_hours']) {
    for (const sessions of chunks(erased.sessions)) {
      await events.command(`DELETE FROM ${table} WHERE ${SITE} AND hour IN ${HOURS} AND ${ERASED_KEYS}`, {
        ...params,
        sessions,
      })
    }
    await events.command(
      `DELETE FROM ${table} WHERE ${SITE} AND hour IN ${HOURS} AND ${VISITOR_ROWS}`,
      params,
    )
  }
}

/** `values` in slices of `SESSIONS_PER_STATEMENT` (none for none). */
function* chunks(values: readonly string[]): Generator<readonly string[]> {
  for (let i = 0; i < values.length; i += SESSIONS_PER_STATEMENT)
    yield values.slice(i, i + SESSIONS_PER_STATEMENT)
}

/**
 * Roll up `hours` of `event_hours` again from the events left in them, then `days` of `page_days` from
 * `event_hours` (the refill's view rows for those days deleted with the old ones).
 */
async function refillHours(
  events: EventsStore,
  params: Record<string, unknown> & { hours: string[]; days: string[] },
): Promise<void> {
  if (params.hours.length > 0) {
    await events.command(`DELETE FROM event_hours WHERE ${SITE} AND hour IN ${HOURS}`, params)
    await events.command(eventHoursInsert(EVENTS_OF_HOURS), params)
  }
  await events.command(`DELETE FROM page_days WHERE ${SITE} AND day IN ${DAYS}`, params)
  await events.command(pageDaysInsert(`${SITE} AND toStartOfDay(hour) IN ${DAYS}`), params)
}

/**
 * The hours whose `event_hours` total differs from the events in them, and the days whose `page_days`
 * pageviews differ from `event_hours`' pathname rows (with the days of those hours: their pages follow).
 */
async function unequalTotals(
  events: EventsStore,
  params: Record<string, unknown>,
): Promise<{ hours: string[]; days: string[] }> {
  const hourRows = await events.query<{ hour: string }>(
    `SELECT toString(hour) AS hour FROM (
       SELECT hour, sum(event_count) AS rolled, 0 AS raw FROM event_hours
       WHERE ${SITE} AND dimension = '' AND hour IN ${HOURS} GROUP BY hour
       UNION ALL
       SELECT toDateTime(toStartOfHour(timestamp), 'UTC') AS hour, 0 AS rolled, count() AS raw FROM events
       WHERE ${EVENTS_OF_HOURS} GROUP BY hour)
     GROUP BY hour HAVING sum(rolled) != sum(raw) ORDER BY hour`,
    params,
  )
  const dayRows = await events.query<{ day: string }>(
    `SELECT toString(day) AS day FROM (
       SELECT day, sum(pageview_count) AS rolled, 0 AS hourly FROM page_days
       WHERE ${SITE} AND day IN ${DAYS} GROUP BY day
       UNION ALL
       SELECT toStartOfDay(hour) AS day, 0 AS rolled, sum(pageview_count) AS hourly FROM event_hours
       WHERE ${SITE} AND dimension = 'pathname' AND toStartOfDay(hour) IN ${DAYS} GROUP BY day)
     GROUP BY day HAVING sum(rolled) != sum(hourly) ORDER BY day`,
    params,
  )
  const hours = hourRows.map((row) => row.hour)
  return { hours, days: [...new Set([...dayRows.map((row) => row.day), ...hours.map(startOfDay)])] }
}
