/** The request log hides the one-time tokens of links and leaves every other URL as it came. */
import { describe, expect, it } from 'vitest'
import { loggedUrl } from './request-log.js'

describe('loggedUrl', () => {
  it.each([
    ['/api/invitations/AbC_1-x', '/api/invitations/***'],
    ['/api/invitations/AbC_1-x/accept', '/api/invitations/***/accept'],
    ['/invitations/AbC', '/invitations/***'],
    [
      '/api/auth/reset-password/Xy12?callbackURL=http%3A%2F%2Fa%2Freset-password',
      '/api/auth/reset-password/***?callbackURL=http%3A%2F%2Fa%2Freset-password',
    ],
    ['/reset-password?token=Xy12', '/reset-password?token=***'],
    [
      '/reset-password?error=INVALID_TOKEN&token=Xy12&x=1',
      '/reset-password?error=INVALID_TOKEN&token=***&x=1',
    ],
    ['/api/email-reports/subscriptions/t0k/unsubscribe', '/api/email-reports/subscriptions/***/unsubscribe'],
    ['/email-reports/confirm/t0k', '/email-reports/confirm/***'],
    ['/email-reports/unsubscribe/t0k', '/email-reports/unsubscribe/***'],
    ['/api/alerts/subscriptions/t0k/confirm', '/api/alerts/subscriptions/***/confirm'],
    ['/alerts/confirm/t0k', '/alerts/confirm/***'],
    ['/alerts/unsubscribe/t0k', '/alerts/unsubscribe/***'],
  ])('%s -> %s', (url, logged) => {
    expect(loggedUrl(url)).toBe(logged)
  })

  it('leaves other URLs alone', () => {
    for (const url of [
      '/api/sites/1/stats?period=7d',
      '/api/organizations/o1/invitations',
      '/api/auth/get-session',
    ]) {
      expect(loggedUrl(url)).toBe(url)
    }
  })
})
