/**
 * Identified users (`GET /api/v1/sites/{siteId}/users` and `/users/{userId}`): a profile per `user_id`
 * the site sent, with its traits and figures; anonymous visitors have none.
 */
import { z } from 'zod'
import { userSortKeys } from './enums.js'
import { component, doc } from './openapi-registry.js'

export const userListQuery = z.object({
  search: doc(
    z.string().max(256, 'must be at most 256 characters'),
    'Only users whose id or traits contain this text (case-insensitive)',
  ).optional(),
  sort: doc(
    z.enum(userSortKeys, { error: `must be one of ${userSortKeys.join(', ')}` }),
    'Default lastSeen',
  ).default('lastSeen'),
  order: z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).default('desc'),
  page: z.coerce
    .number({ error: 'must be a whole number from 1' })
    .int('must be a whole number from 1')
    .min(1, 'must be a whole number from 1')
    .default(1),
  limit: z.coerce
    .number({ error: 'must be a whole number from 1 to 200' })
    .int('must be a whole number from 1 to 200')
    .min(1, 'must be a whole number from 1 to 200')
    .max(200, 'must be a whole number from 1 to 200')
    .default(50),
})
export type UserListQuery = z.output<typeof userListQuery>

const userFigures = {
  userId: doc(z.string(), 'The `user_id` the site sent'),
  traits: doc(z.record(z.string(), z.unknown()), 'The last value of each trait'),
  firstSeen: doc(z.string(), 'ISO 8601: the first event (or the identify, without events)'),
  lastSeen: doc(z.string(), 'ISO 8601: the latest event'),
  sessions: z.int().min(0),
  pageviews: z.int().min(0),
  events: doc(z.int().min(0), 'Events of every type'),
  lastCountry: doc(z.string(), 'ISO 3166-1 alpha-2 of the latest event; empty when unknown'),
  lastDevice: doc(z.string(), 'Device type of the latest event; empty when unknown'),
}

export const userSummary = component(
  'UserSummary',
  z.object(userFigures),
  'An identified user and their figures.',
)
export type UserSummary = z.output<typeof userSummary>

export const userDetail = component(
  'UserDetail',
  z.object({
    ...userFigures,
    traitHistory: doc(
      z.record(z.string(), z.object({ value: z.unknown(), changedAt: z.string() })),
      'Each trait with when it last changed (ISO 8601)',
    ),
    identifiedAt: doc(z.string(), 'ISO 8601: when the profile was made'),
    recentSessions: doc(
      z.array(
        z.object({
          sessionId: z.string(),
          start: z.string(),
          end: z.string(),
          pageviews: z.int().min(0),
          events: z.int().min(0),
          hasReplay: doc(z.boolean(), 'The session has a replay recording'),
        }),
      ),
      'The latest 50 sessions, newest first',
    ),
    recentEvents: doc(
      z.array(
        z.object({
          timestamp: z.string(),
          type: z.string(),
          eventName: z.string(),
          pathname: z.string(),
          sessionId: z.string(),
          properties: doc(z.string(), 'JSON object text; empty when none'),
        }),
      ),
      'The latest 200 events, newest first',
    ),
  }),
  'An identified user: figures, traits and timeline.',
)
export type UserDetail = z.output<typeof userDetail>
