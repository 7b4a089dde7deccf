/**
 * How the Users pages show a user's data: trait values as text, and the link to a session of their
 * timeline (the session page reads its events in a range, so the link carries the session's UTC days).
 */
import { routePath } from '../router/routes'
import { withView } from './report-view'

/** A trait's value as text: strings as they are, anything else as JSON; '' for null or undefined. */
export function traitText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  return JSON.stringify(value) ?? String(value)
}

/**
 * The path of the session page of `sessionId` of site `siteId`, with a custom UTC range from the day
 * of `start` to the day of `end` (ISO 8601 instants).
 */
export function sessionLink(siteId: string, sessionId: string, start: string, end: string): string {
  return withView(routePath({ name: 'session', siteId, sessionId }), {
    period: 'custom',
    from: start.slice(0, 10),
    to: end.slice(0, 10),
    tz: 'UTC',
    filters: [],
  })
}
