import { describe, expect, it } from 'vitest'
import { totpSecretOf } from './totp-uri'

describe('totpSecretOf', () => {
  it('groups the secret in fours', () => {
    expect(
      totpSecretOf('otpauth://totp/Pathlight:a%40example.com?secret=jbswy3dpehpk3pxpab&issuer=Pathlight'),
    ).toBe('JBSW Y3DP EHPK 3PXP AB')
  })

  it('answers null for anything else', () => {
    expect(totpSecretOf('https://example.com/?secret=ABCD')).toBeNull()
    expect(totpSecretOf('otpauth://totp/x?issuer=Pathlight')).toBeNull()
    expect(totpSecretOf('not a uri')).toBeNull()
  })
})
