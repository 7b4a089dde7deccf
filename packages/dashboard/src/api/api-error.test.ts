import { describe, expect, it } from 'vitest'
import { ApiError, statusMessage, toApiError } from './api-error'

describe('toApiError', () => {
  it('keeps the server message and its field and form errors', () => {
    const error = toApiError(400, {
      success: false,
      error: 'Invalid site configuration',
      details: {
        fieldErrors: {
          excludedIPs: ['entry 0: "999.1.1.1" is not an IP address or CIDR range'],
          blockBots: [],
        },
        formErrors: ['Unrecognized key: colour'],
      },
    })
    expect(error).toBeInstanceOf(ApiError)
    expect(error.status).toBe(400)
    expect(error.message).toBe('Invalid site configuration')
    expect(error.fieldErrors).toEqual({
      excludedIPs: ['entry 0: "999.1.1.1" is not an IP address or CIDR range'],
    })
    expect(error.field('excludedIPs')).toHaveLength(1)
    expect(error.field('blockBots')).toBeUndefined()
    expect(error.formErrors).toEqual(['Unrecognized key: colour'])
  })

  it('shows rule violations as the server words them', () => {
    const error = toApiError(409, {
      success: false,
      error: 'The last owner cannot be removed; make someone else owner first',
    })
    expect(error.message).toBe('The last owner cannot be removed; make someone else owner first')
    expect(error.fieldErrors).toEqual({})
  })

  it('maps Better Auth errors to the form field they concern', () => {
    const exists = toApiError(422, {
      code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL',
      message: 'User already exists. Use another email.',
    })
    expect(exists.message).toBe('An account with this email already exists; sign in instead')
    expect(exists.field('email')).toEqual([exists.message])

    const short = toApiError(400, { code: 'PASSWORD_TOO_SHORT', message: 'Password too short' })
    expect(short.field('password')).toEqual(['Use at least 8 characters'])

    const wrong = toApiError(401, { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' })
    expect(wrong.message).toBe('Invalid email or password')
    expect(wrong.fieldErrors).toEqual({})
  })

  it('falls back to a message for the status when the body says nothing usable', () => {
    expect(toApiError(502, '<html>Bad gateway</html>').message).toBe(
      'The server had a problem (HTTP 502); try again shortly',
    )
    expect(toApiError(404, undefined).message).toBe('Not found')
    expect(toApiError(429, { success: false, error: '' }).message).toBe(statusMessage(429))
    expect(toApiError(400, { success: false, error: 'Bad', details: 'nope' }).fieldErrors).toEqual({})
    expect(toApiError(0, undefined).message).toMatch(/Cannot reach the Pathlight server/)
  })
})
