import { describe, expect, it } from 'vitest'
import { parseRoute } from '../router/routes'
import { sessionLink, traitText } from './user-text'

describe('traitText', () => {
  it('shows strings as they are and other values as JSON', () => {
    expect(traitText('pro')).toBe('pro')
    expect(traitText(42)).toBe('42')
    expect(traitText(true)).toBe('true')
    expect(traitText({ a: [1] })).toBe('{"a":[1]}')
    expect(traitText(null)).toBe('')
    expect(traitText(undefined)).toBe('')
  })
})

describe('sessionLink', () => {
  it('opens the session page over the UTC days of the session', () => {
    const link = sessionLink('7', 'abc', '2026-03-10T23:59:00.000Z', '2026-03-11T00:10:00.000Z')
    const url = new URL(link, 'http://x')
    expect(parseRoute(url.pathname, url.search)).toEqual({ name: 'session', siteId: '7', sessionId: 'abc' })
    expect(url.searchParams.get('from')).toBe('2026-03-10')
    expect(url.searchParams.get('to')).toBe('2026-03-11')
    expect(url.searchParams.get('tz')).toBe('UTC')
    expect(url.searchParams.get('period')).toBe('custom')
  })
})
