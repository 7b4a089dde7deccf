/**
 * The dashboard's URLs: one table of patterns, `parseRoute` from a location to a typed `Route`, and
 * `routePath` back. Everything a view needs lives in its URL, so any view can be reloaded or shared.
 * Numeric ids (`siteId`) must be digits; other ids are any non-empty segment.
 */
import type { RetentionPeriod, UserSortKey } from '@pathlight/protocol'
import { retentionPeriods, userSortKeys } from '@pathlight/protocol/enums'

export const routeTable = {
  signIn: '/sign-in',
  signUp: '/sign-up',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  invitation: '/invitations/:token',
  home: '/',
  account: '/account',
  newOrganization: '/organizations/new',
  organization: '/organizations/:organizationId',
  newSite: '/organizations/:organizationId/sites/new',
  members: '/organizations/:organizationId/members',
  site: '/sites/:siteId',
  siteSettings: '/sites/:siteId/settings',
  webhooks: '/sites/:siteId/webhooks',
  webhook: '/sites/:siteId/webhooks/:webhookId',
  alerts: '/sites/:siteId/alerts',
  goals: '/sites/:siteId/goals',
  goal: '/sites/:siteId/goals/:goalId',
  errors: '/sites/:siteId/errors',
  errorDetail: '/sites/:siteId/errors/detail',
  webVitals: '/sites/:siteId/web-vitals',
  sessions: '/sites/:siteId/sessions',
  session: '/sites/:siteId/sessions/:sessionId',
  events: '/sites/:siteId/events',
  journeys: '/sites/:siteId/journeys',
  retention: '/sites/:siteId/retention',
  funnels: '/sites/:siteId/funnels',
  crawlers: '/sites/:siteId/crawlers',
  /** Identified users (members only: profiles are personal data, not part of a shared view). */
  users: '/sites/:siteId/users',
  user: '/sites/:siteId/users/:userId',
  /** The links of the e-mail report mails: they work signed in or out. */
  emailReportConfirm: '/email-reports/confirm/:token',
  emailReportUnsubscribe: '/email-reports/unsubscribe/:token',
  /** The links of the alert mails: they work signed in or out. */
  alertConfirm: '/alerts/confirm/:token',
  alertUnsubscribe: '/alerts/unsubscribe/:token',
  /** Better Auth's OAuth provider sends a signed-in user here to allow an MCP client (query: the request). */
  oauthConsent: '/oauth/consent',
} as const

/**
 * The report pages: readable by members and, in a shared view, by private link holders and anyone
 * for a public site. Their report state (range, filters, ...) lives in the query string too
 * (`lib/report-view.ts`).
 */
export const reportRouteNames = [
  'site',
  'goals',
  'goal',
  'errors',
  'errorDetail',
  'webVitals',
  'sessions',
  'session',
  'events',
  'journeys',
  'retention',
  'funnels',
  'crawlers',
] as const
export type ReportRouteName = (typeof reportRouteNames)[number]

type Table = typeof routeTable
export type RouteName = keyof Table

/** The `:name` parameters of a pattern, as a union of names. */
type ParamsOf<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamsOf<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never

/** Routes that read a query parameter, and which. */
interface QueryOf {
  signIn: { next?: string }
  signUp: { next?: string }
  /** The page a reset link leads to: Better Auth's `token`, or `error` (INVALID_TOKEN) for a bad link. */
  resetPassword: { token?: string; error?: string }
  webhook: { page?: number }
  errorDetail: { message?: string }
  /** The journeys report: `steps` 2..6, `start`/`end` the start and end pathnames. */
  journeys: { steps?: number; start?: string; end?: string }
  /** The retention report: `cohort` the cohort period (the view's `period` is the range). */
  retention: { cohort?: RetentionPeriod }
  /** The funnels report: `steps` the funnel's steps as JSON, `show` the sessions listed ('2', '2-dropped'). */
  funnels: { steps?: string; show?: string; by?: string }
  /** The users list: `search` (user id or trait text), `sort` and `order`, `page` from 1. */
  users: UsersQuery
}

/** The users list's own query: as `GET /api/sites/{siteId}/users` takes it; defaults left out. */
export interface UsersQuery {
  search?: string
  sort?: UserSortKey
  order?: 'asc' | 'desc'
  page?: number
}

export type Route =
  | {
      [N in RouteName]: { name: N } & Record<ParamsOf<Table[N]>, string> &
        (N extends keyof QueryOf ? QueryOf[N] : unknown)
    }[RouteName]
  | { name: 'notFound' }

export type RouteOf<N extends RouteName> = Extract<Route, { name: N }>

const numericParams = new Set(['siteId', 'goalId'])

/** Patterns with fewer parameters first, so `/organizations/new` wins over `/organizations/:id`. */
const compiled = (Object.entries(routeTable) as [RouteName, string][])
  .map(([name, pattern]) => ({ name, segments: pattern.split('/').filter(Boolean) }))
  .sort((a, b) => countParams(a.segments) - countParams(b.segments))

function countParams(segments: string[]): number {
  return segments.filter((s) => s.startsWith(':')).length
}

/**
 * A local path to return to after signing in: it must start with one `/` (not `//`, which would leave
 * the origin) and must not lead back to the sign-in pages.
 */
export function safeNext(value: string | null | undefined): string | undefined {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined
  if (value.startsWith('/sign-in') || value.startsWith('/sign-up')) return undefined
  return value
}

/**
 * @param pathname the location's path (a trailing slash is ignored)
 * @param search the location's query string, with or without its `?`
 */
export function parseRoute(pathname: string, search = ''): Route {
  const parts = pathname.split('/').filter(Boolean)
  let decoded: string[]
  try {
    decoded = parts.map((p) => decodeURIComponent(p))
  } catch {
    return { name: 'notFound' }
  }
  const query = new URLSearchParams(search)
  for (const { name, segments } of compiled) {
    if (segments.length !== decoded.length) continue
    const params: Record<string, string> = {}
    const matches = segments.every((segment, i) => {
      const value = decoded[i] ?? ''
      if (!segment.startsWith(':')) return segment === value
      const key = segment.slice(1)
      if (value === '' || (numericParams.has(key) && !/^\d{1,10}$/.test(value))) return false
      params[key] = value
      return true
    })
    if (!matches) continue
    if (name === 'signIn' || name === 'signUp') {
      const next = safeNext(query.get('next'))
      return next ? { name, next } : { name }
    }
    if (name === 'resetPassword') {
      const token = query.get('token')
      const error = query.get('error')
      return { name, ...(token ? { token } : {}), ...(error ? { error } : {}) }
    }
    if (name === 'errorDetail') {
      const message = query.get('message')
      return { name, ...params, ...(message ? { message } : {}) } as Route
    }
    if (name === 'journeys') return { name, ...params, ...journeyQuery(query) } as Route
    if (name === 'retention') {
      const cohort = retentionPeriods.find((p) => p === query.get('cohort'))
      return { name, ...params, ...(cohort ? { cohort } : {}) } as Route
    }
    if (name === 'funnels') {
      const steps = query.get('steps')
      const show = query.get('show')
      const by = query.get('by')
      return {
        name,
        ...params,
        ...(steps ? { steps } : {}),
        ...(show ? { show } : {}),
        ...(by ? { by } : {}),
      } as Route
    }
    if (name === 'users') return { name, ...params, ...usersQuery(query) } as Route
    if (name === 'webhook') {
      const page = Number(query.get('page'))
      return { name, ...params, ...(Number.isInteger(page) && page > 1 ? { page } : {}) } as Route
    }
    return { name, ...params } as Route
  }
  return { name: 'notFound' }
}

/** The path (and query) of a route; parameters are URL-encoded. */
export function routePath(route: Route): string {
  if (route.name === 'notFound') return '/'
  const params = route as unknown as Record<string, string | number | undefined>
  const path = routeTable[route.name].replace(/:(\w+)/g, (_, key: string) =>
    encodeURIComponent(String(params[key] ?? '')),
  )
  if ((route.name === 'signIn' || route.name === 'signUp') && route.next)
    return `${path}?next=${encodeURIComponent(route.next)}`
  if (route.name === 'resetPassword' && (route.token || route.error)) {
    const query = new URLSearchParams()
    if (route.token) query.set('token', route.token)
    if (route.error) query.set('error', route.error)
    return `${path}?${query}`
  }
  if (route.name === 'webhook' && route.page && route.page > 1) return `${path}?page=${route.page}`
  if (route.name === 'errorDetail' && route.message)
    return `${path}?message=${encodeURIComponent(route.message)}`
  if (route.name === 'retention' && route.cohort) return `${path}?cohort=${route.cohort}`
  if (route.name === 'funnels') {
    const query = new URLSearchParams()
    if (route.steps) query.set('steps', route.steps)
    if (route.show) query.set('show', route.show)
    if (route.by) query.set('by', route.by)
    const search = query.toString()
    return search ? `${path}?${search}` : path
  }
  if (route.name === 'users') {
    const query = new URLSearchParams()
    if (route.search) query.set('search', route.search)
    if (route.sort) query.set('sort', route.sort)
    if (route.order) query.set('order', route.order)
    if (route.page && route.page > 1) query.set('page', String(route.page))
    const search = query.toString()
    return search ? `${path}?${search}` : path
  }
  if (route.name === 'journeys') {
    const query = new URLSearchParams()
    if (route.steps !== undefined) query.set('steps', String(route.steps))
    if (route.start) query.set('start', route.start)
    if (route.end) query.set('end', route.end)
    const search = query.toString()
    return search ? `${path}?${search}` : path
  }
  return path
}

/** The journeys route's own parameters of a query string; invalid ones are left out. */
function journeyQuery(query: URLSearchParams): QueryOf['journeys'] {
  const steps = Number(query.get('steps'))
  const start = query.get('start')
  const end = query.get('end')
  return {
    ...(Number.isInteger(steps) && steps >= 2 && steps <= 6 ? { steps } : {}),
    ...(start ? { start } : {}),
    ...(end ? { end } : {}),
  }
}

/** The users route's own parameters of a query string; invalid ones are left out. */
function usersQuery(query: URLSearchParams): UsersQuery {
  const search = query.get('search')
  const sort = userSortKeys.find((key) => key === query.get('sort'))
  const order = query.get('order')
  const page = Number(query.get('page'))
  return {
    ...(search ? { search } : {}),
    ...(sort ? { sort } : {}),
    ...(order === 'asc' || order === 'desc' ? { order } : {}),
    ...(Number.isInteger(page) && page > 1 ? { page } : {}),
  }
}

/** True for the routes of `reportRouteNames`. */
export function isReportRoute(route: Route): route is Extract<Route, { name: ReportRouteName }> {
  return (reportRouteNames as readonly string[]).includes(route.name)
}
