import { describe, expect, it } from 'vitest'
import { ssoErrorText } from './sso-error-text'

describe('ssoErrorText', () => {
  it('says a known code in words and names an unknown one', () => {
    expect(ssoErrorText('state_mismatch')).toMatch(/could not be verified/)
    expect(ssoErrorText('account_not_linked')).toMatch(/already exists/)
    expect(ssoErrorText('server_error', 'Upstream broke')).toBe('Single sign-on failed (Upstream broke).')
    expect(ssoErrorText('weird')).toBe('Single sign-on failed (weird).')
  })
})
