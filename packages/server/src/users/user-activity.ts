/**
 * Identified users' activity from the events store: per user id, first and last seen, sessions,
 * pageviews, events, and the country and device of their latest event; and one user's timeline (their
 * sessions, newest first, with whether each has a replay, and their latest events). Reads the site's
 * rows by `user_id` (not in the sort key: a scan of the site's events); user ids are asked in slices
 * of `USERS_PER_QUERY` (a ClickHouse server takes parameters in the URL).
 */
import { fromClickHouseTime } from '../storage/events/clickhouse-time.js'
import type { EventsStore } from '../storage/events/events-store.js'

/** User ids per statement. */
export const USERS_PER_QUERY = 500

/** A user's activity. Times are ISO 8601 UTC; counts whole numbers. */
export interface UserActivity {
  firstSeen: string
  lastSeen: string
  sessions: number
  pageviews: number
  events: number
  /** ISO 3166-1 alpha-2 of the latest event, '' when unknown. */
  lastCountry: string
  /** `desktop`, `mobile`, `tablet` ... of the latest event, '' when unknown. */
  lastDevice: string
}

interface ActivityRow {
  user_id: string
  first_seen: string
  last_seen: string
  sessions: string | number
  pageviews: string | number
  events: string | number
  last_country: string
  last_device: string
}

/** The activity of each of `userIds` that has events on the site (others are absent from the map). */
export async function activityOfUsers(
  events: EventsStore,
  siteId: number,
  userIds: readonly string[],
): Promise<Map<string, UserActivity>> {
  const activity = new Map<string, UserActivity>()
  for (let i = 0; i < userIds.length; i += USERS_PER_QUERY) {
    const rows = await events.query<ActivityRow>(
      `SELECT user_id, toString(min(timestamp)) AS first_seen, toString(max(timestamp)) AS last_seen,
              uniqExact(session_id) AS sessions, countIf(type = 'pageview') AS pageviews, count() AS events,
              argMax(country, timestamp) AS last_country, argMax(device_type, timestamp) AS last_device
       FROM events WHERE site_id = {site:UInt32} AND user_id IN {users:Array(String)}
       GROUP BY user_id`,
      { site: siteId, users: userIds.slice(i, i + USERS_PER_QUERY) },
    )
    for (const row of rows) {
      activity.set(row.user_id, {
        firstSeen: fromClickHouseTime(row.first_seen),
        lastSeen: fromClickHouseTime(row.last_seen),
        sessions: Number(row.sessions),
        pageviews: Number(row.pageviews),
        events: Number(row.events),
        lastCountry: row.last_country,
        lastDevice: row.last_device,
      })
    }
  }
  return activity
}

/** One session of a user's timeline. */
export interface UserSession {
  sessionId: string
  start: string
  end: string
  pageviews: number
  events: number
  /** True when the session has a replay recording. */
  hasReplay: boolean
}

/** One event of a user's timeline. */
export interface UserEvent {
  timestamp: string
  type: string
  eventName: string
  pathname: string
  sessionId: string
  /** The event's properties (JSON object text, '' when none). */
  properties: string
}

/** A user's latest `sessionLimit` sessions and latest `eventLimit` events, newest first. */
export async function timelineOfUser(
  events: EventsStore,
  siteId: number,
  userId: string,
  limits: { sessions: number; events: number },
): Promise<{ sessions: UserSession[]; events: UserEvent[] }> {
  const params = { site: siteId, user: userId }
  const sessionRows = await events.query<{
    session_id: string
    start: string
    end: string
    pageviews: string | number
    events: string | number
  }>(
    `SELECT session_id, toString(min(timestamp)) AS start, toString(max(timestamp)) AS end,
            countIf(type = 'pageview') AS pageviews, count() AS events
     FROM events WHERE site_id = {site:UInt32} AND user_id = {user:String}
     GROUP BY session_id ORDER BY min(timestamp) DESC, session_id LIMIT {limit:UInt32}`,
    { ...params, limit: limits.sessions },
  )
  const sessionIds = sessionRows.map((row) => row.session_id)
  const replayed = new Set(
    sessionIds.length === 0
      ? []
      : (
          await events.query<{ session_id: string }>(
            `SELECT DISTINCT session_id FROM replay
             WHERE site_id = {site:UInt32} AND session_id IN {sessions:Array(String)}`,
            { site: siteId, sessions: sessionIds },
          )
        ).map((row) => row.session_id),
  )
  const eventRows = await events.query<{
    ts: string
    type: string
    event_name: string
    pathname: string
    session_id: string
    properties: string
  }>(
    `SELECT toString(timestamp) AS ts, type, event_name, pathname, session_id, properties
     FROM events WHERE site_id = {site:UInt32} AND user_id = {user:String}
     ORDER BY timestamp DESC, event_id LIMIT {limit:UInt32}`,
    { ...params, limit: limits.events },
  )
  return {
    sessions: sessionRows.map((row) => ({
      sessionId: row.session_id,
      start: fromClickHouseTime(row.start),
      end: fromClickHouseTime(row.end),
      pageviews: Number(row.pageviews),
      events: Number(row.events),
      hasReplay: replayed.has(row.session_id),
    })),
    events: eventRows.map((row) => ({
      timestamp: fromClickHouseTime(row.ts),
      type: row.type,
      eventName: row.event_name,
      pathname: row.pathname,
      sessionId: row.session_id,
      properties: row.properties,
    })),
  }
}
