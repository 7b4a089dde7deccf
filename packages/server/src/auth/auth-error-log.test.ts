/**
 * Without SMTP_URL, password reset requests are refused (503) as expected: the log says so once, as a
 * warning naming what the operator can do, never as an error per request.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import { NO_MAIL_WARNING } from './auth-error-log.js'

describe('auth error log without SMTP_URL', () => {
  let t: TestInstance

  beforeAll(async () => {
    t = await openTestInstance({ env: { LOG_LEVEL: 'warn' } })
    await t.signUp('owner@example.com')
  })
  afterAll(() => t.close())
  afterEach(() => vi.restoreAllMocks())

  const printed = (spy: { mock: { calls: unknown[][] } }) =>
    spy.mock.calls.map((call) => call.map(String).join(' '))

  it('warns once that e-mail is not configured, and logs no error for it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    for (const email of ['owner@example.com', 'nobody@example.com', 'owner@example.com']) {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/auth/request-password-reset',
        payload: { email },
      })
      expect(answer.statusCode).toBe(503)
      expect(answer.json()).toMatchObject({ message: 'E-mail is not configured: set SMTP_URL' })
    }
    expect(printed(error).filter((line) => line.includes('E-mail is not configured'))).toEqual([])
    const warnings = printed(warn).filter((line) => line.includes('E-mail is not configured'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(NO_MAIL_WARNING)
    expect(warnings[0]).toContain('npx pathlight reset-password EMAIL')
  })
})
