import { describe, expect, it } from 'vitest'
import { DESKTOP_CHROME, rowColumns, stageDraft } from '../draft.fixture.js'
import { putUserAgent } from './put-user-agent.js'

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'
const MAC_SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15'

const DEVICE = [
  'browser',
  'browser_version',
  'operating_system',
  'operating_system_version',
  'device_type',
] as const

/** The device columns of the row after `putUserAgent`. */
const deviceOf = (parts: Parameters<typeof stageDraft>[0]) => {
  const draft = stageDraft(parts)
  expect(putUserAgent(draft)).toEqual({ ok: true })
  return rowColumns(draft, DEVICE)
}

describe('putUserAgent', () => {
  it('fills browser, OS and device of the User-Agent header', () => {
    expect(deviceOf({ incoming: { userAgent: DESKTOP_CHROME } })).toEqual({
      browser: 'Chrome',
      browser_version: '120.0.0.0',
      operating_system: 'Windows',
      operating_system_version: '10',
      device_type: 'desktop',
    })
  })

  it('tells a phone', () => {
    expect(deviceOf({ incoming: { userAgent: IPHONE_SAFARI } })).toMatchObject({
      browser: 'Mobile Safari',
      operating_system: 'iOS',
      device_type: 'mobile',
    })
  })

  it('lets the screen width tell an iPad (a Macintosh user agent, 768-1024 px) from a Mac', () => {
    expect(deviceOf({ incoming: { userAgent: MAC_SAFARI }, body: { screenWidth: 1024 } }).device_type).toBe(
      'tablet',
    )
    expect(deviceOf({ incoming: { userAgent: MAC_SAFARI }, body: { screenWidth: 1440 } }).device_type).toBe(
      'desktop',
    )
  })

  it('leaves every field empty without a user agent', () => {
    expect(new Set(Object.values(deviceOf({ incoming: { userAgent: undefined } })))).toEqual(new Set(['']))
  })
})
