import { describe, expect, it } from 'vitest'
import { parseRoute, type Route, routePath, safeNext } from './routes'

describe('parseRoute', () => {
  it('matches each kind of page', () => {
    expect(parseRoute('/')).toEqual({ name: 'home' })
    expect(parseRoute('/sign-in')).toEqual({ name: 'signIn' })
    expect(parseRoute('/account/')).toEqual({ name: 'account' })
    expect(parseRoute('/organizations/new')).toEqual({ name: 'newOrganization' })
    expect(parseRoute('/organizations/abc-123')).toEqual({ name: 'organization', organizationId: 'abc-123' })
    expect(parseRoute('/organizations/abc/sites/new')).toEqual({ name: 'newSite', organizationId: 'abc' })
    expect(parseRoute('/organizations/abc/members')).toEqual({ name: 'members', organizationId: 'abc' })
    expect(parseRoute('/sites/12')).toEqual({ name: 'site', siteId: '12' })
    expect(parseRoute('/sites/12/settings')).toEqual({ name: 'siteSettings', siteId: '12' })
    expect(parseRoute('/sites/12/alerts')).toEqual({ name: 'alerts', siteId: '12' })
    expect(parseRoute('/sites/12/webhooks')).toEqual({ name: 'webhooks', siteId: '12' })
    expect(parseRoute('/sites/12/webhooks/w-1')).toEqual({ name: 'webhook', siteId: '12', webhookId: 'w-1' })
    expect(parseRoute('/sites/12/goals')).toEqual({ name: 'goals', siteId: '12' })
    expect(parseRoute('/sites/12/goals/3')).toEqual({ name: 'goal', siteId: '12', goalId: '3' })
    expect(parseRoute('/sites/12/errors')).toEqual({ name: 'errors', siteId: '12' })
    expect(parseRoute('/sites/12/web-vitals')).toEqual({ name: 'webVitals', siteId: '12' })
    expect(parseRoute('/sites/12/sessions')).toEqual({ name: 'sessions', siteId: '12' })
    expect(parseRoute('/sites/12/sessions/a-b')).toEqual({ name: 'session', siteId: '12', sessionId: 'a-b' })
    expect(parseRoute('/sites/12/events')).toEqual({ name: 'events', siteId: '12' })
    expect(parseRoute('/sites/12/goals/x')).toEqual({ name: 'notFound' })
  })

  it('reads the error message of the error detail from the query', () => {
    const route = { name: 'errorDetail', siteId: '2', message: "Cannot read 'x' & y?" } as const
    expect(routePath(route)).toBe("/sites/2/errors/detail?message=Cannot%20read%20'x'%20%26%20y%3F")
    expect(parseRoute('/sites/2/errors/detail', routePath(route).split('?')[1])).toEqual(route)
    expect(parseRoute('/sites/2/errors/detail', '?period=7d')).toEqual({ name: 'errorDetail', siteId: '2' })
  })

  it('reads the steps, start and end pages of the journeys from the query', () => {
    const route = { name: 'journeys', siteId: '2', steps: 3, start: '/a b?', end: '/c' } as const
    expect(routePath(route)).toBe('/sites/2/journeys?steps=3&start=%2Fa+b%3F&end=%2Fc')
    expect(parseRoute('/sites/2/journeys', routePath(route).split('?')[1])).toEqual(route)
    expect(parseRoute('/sites/2/journeys', '?steps=9&start=&period=7d')).toEqual({
      name: 'journeys',
      siteId: '2',
    })
  })

  it('answers notFound for unknown paths, non-numeric site ids and bad encodings', () => {
    for (const path of [
      '/nope',
      '/sites/abc',
      '/sites/1/unknown',
      '/sites/1/webhooks/a/b',
      '/sites/%E0%A4%A',
    ]) {
      expect(parseRoute(path), path).toEqual({ name: 'notFound' })
    }
  })

  it('decodes parameters', () => {
    expect(parseRoute('/organizations/a%20b')).toEqual({ name: 'organization', organizationId: 'a b' })
  })

  it('reads the page of the delivery log and the sign-in return path from the query', () => {
    expect(parseRoute('/sites/1/webhooks/w', '?page=3')).toEqual({
      name: 'webhook',
      siteId: '1',
      webhookId: 'w',
      page: 3,
    })
    expect(parseRoute('/sites/1/webhooks/w', '?page=x')).toEqual({
      name: 'webhook',
      siteId: '1',
      webhookId: 'w',
    })
    expect(parseRoute('/sign-in', '?next=%2Fsites%2F1%2Fsettings')).toEqual({
      name: 'signIn',
      next: '/sites/1/settings',
    })
  })

  it('never returns to another origin after sign-in', () => {
    for (const next of [
      'https://evil.example',
      '//evil.example/x',
      '/\\evil.example',
      'sites/1',
      '/sign-in',
    ]) {
      expect(parseRoute('/sign-in', `?next=${encodeURIComponent(next)}`), next).toEqual({ name: 'signIn' })
      expect(safeNext(next), next).toBeUndefined()
    }
  })
})

describe('routePath', () => {
  it('round-trips every route', () => {
    const routes: Route[] = [
      { name: 'home' },
      { name: 'signUp' },
      { name: 'signIn', next: '/sites/4?x=1' },
      { name: 'organization', organizationId: 'a b/c' },
      { name: 'newSite', organizationId: 'o1' },
      { name: 'siteSettings', siteId: '4' },
      { name: 'webhook', siteId: '4', webhookId: 'w/1', page: 2 },
      { name: 'signUp', next: '/invitations/abc' },
      { name: 'forgotPassword' },
      { name: 'resetPassword', token: 'Ab9' },
      { name: 'resetPassword', error: 'INVALID_TOKEN' },
      { name: 'resetPassword' },
      { name: 'invitation', token: 'x_Y-1' },
      { name: 'users', siteId: '4' },
      { name: 'users', siteId: '4', search: 'plan pro', sort: 'pageviews', order: 'asc', page: 3 },
      { name: 'user', siteId: '4', userId: 'user/42 é' },
    ]
    for (const route of routes) {
      const [pathname, search] = routePath(route).split('?')
      expect(parseRoute(pathname ?? '', search ?? '')).toEqual(route)
    }
  })

  it('builds the paths users see', () => {
    expect(routePath({ name: 'siteSettings', siteId: '4' })).toBe('/sites/4/settings')
    expect(routePath({ name: 'signIn', next: '/sites/4' })).toBe('/sign-in?next=%2Fsites%2F4')
    expect(routePath({ name: 'webhook', siteId: '4', webhookId: 'w', page: 1 })).toBe('/sites/4/webhooks/w')
    expect(routePath({ name: 'notFound' })).toBe('/')
    expect(routePath({ name: 'signUp', next: '/invitations/t' })).toBe('/sign-up?next=%2Finvitations%2Ft')
    expect(routePath({ name: 'invitation', token: 'abc' })).toBe('/invitations/abc')
    expect(parseRoute('/sign-up', '?next=//evil.example')).toEqual({ name: 'signUp' })
    expect(routePath({ name: 'users', siteId: '4', sort: 'events', page: 1 })).toBe(
      '/sites/4/users?sort=events',
    )
    // Unknown sort keys and orders, and page 1, are left out of the users route.
    expect(parseRoute('/sites/4/users', '?sort=ip&order=up&page=1&search=a')).toEqual({
      name: 'users',
      siteId: '4',
      search: 'a',
    })
  })
})
