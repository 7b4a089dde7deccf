/**
 * The Users report: identified users' profiles (metadata store) joined with their activity (events
 * store). The list searches user ids and trait text, sorts by any figure, and pages; it reads at most
 * `MAX_LISTED_PROFILES` profiles of a site (the most recently changed) per request.
 */
import type { UserDetail, UserListQuery, UserSummary } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { activityOfUsers, timelineOfUser, type UserActivity } from './user-activity.js'
import { findProfile, listProfiles, type UserProfile } from './user-profiles.js'

/** The most profiles one list request reads. */
export const MAX_LISTED_PROFILES = 10_000
/** A user's page shows this many sessions and events at most. */
export const TIMELINE_SESSIONS = 50
export const TIMELINE_EVENTS = 200

const noActivity = (profile: UserProfile): UserActivity => ({
  firstSeen: profile.createdAt,
  lastSeen: profile.createdAt,
  sessions: 0,
  pageviews: 0,
  events: 0,
  lastCountry: '',
  lastDevice: '',
})

const summaryOf = (profile: UserProfile, activity: UserActivity | undefined): UserSummary => ({
  userId: profile.userId,
  traits: Object.fromEntries(Object.entries(profile.traits).map(([key, trait]) => [key, trait.value])),
  ...(activity ?? noActivity(profile)),
})

/** A page of the site's users, and how many match. */
export async function listUsers(
  db: MetadataDb,
  events: EventsStore,
  siteId: number,
  query: UserListQuery,
): Promise<{ users: UserSummary[]; total: number }> {
  const profiles = await listProfiles(db, siteId, { search: query.search, limit: MAX_LISTED_PROFILES })
  const activity = await activityOfUsers(
    events,
    siteId,
    profiles.map((p) => p.userId),
  )
  const users = profiles.map((profile) => summaryOf(profile, activity.get(profile.userId)))
  const sign = query.order === 'asc' ? 1 : -1
  const key = query.sort
  users.sort((a, b) => {
    const x = a[key]
    const y = b[key]
    const by = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))
    return by !== 0 ? sign * by : a.userId.localeCompare(b.userId)
  })
  const start = (query.page - 1) * query.limit
  return { users: users.slice(start, start + query.limit), total: users.length }
}

/** One user's profile, figures and timeline; null when the site has no such identified user. */
export async function userDetail(
  db: MetadataDb,
  events: EventsStore,
  siteId: number,
  userId: string,
): Promise<UserDetail | null> {
  const profile = await findProfile(db, siteId, userId)
  if (!profile) return null
  const [activity, timeline] = await Promise.all([
    activityOfUsers(events, siteId, [userId]),
    timelineOfUser(events, siteId, userId, { sessions: TIMELINE_SESSIONS, events: TIMELINE_EVENTS }),
  ])
  return {
    ...summaryOf(profile, activity.get(userId)),
    traitHistory: profile.traits,
    identifiedAt: profile.createdAt,
    recentSessions: timeline.sessions,
    recentEvents: timeline.events,
  }
}
