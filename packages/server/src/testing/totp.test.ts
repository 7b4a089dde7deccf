/** The test TOTP against RFC 6238's and RFC 4226's published vectors. */
import { describe, expect, it } from 'vitest'
import { base32Decode, hotp, parseTotpUri, totpCode } from './totp.js'

const RFC_KEY = Buffer.from('12345678901234567890')
// base32 of the RFC key
const RFC_URI =
  'otpauth://totp/Pathlight:a%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Pathlight&digits=8&period=30'

describe('totp (test support)', () => {
  it('computes RFC 4226 appendix D HOTP values', () => {
    expect([0, 1, 2, 9].map((counter) => hotp(RFC_KEY, counter))).toEqual([
      '755224',
      '287082',
      '359152',
      '520489',
    ])
  })

  it('computes RFC 6238 appendix B SHA-1 values from a URI', () => {
    expect(base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')).toEqual(RFC_KEY)
    expect(parseTotpUri(RFC_URI)).toMatchObject({
      digits: 8,
      period: 30,
      issuer: 'Pathlight',
      label: 'Pathlight:a@example.com',
    })
    expect(totpCode(RFC_URI, 59_000)).toBe('94287082')
    expect(totpCode(RFC_URI, 1_111_111_109_000)).toBe('07081804')
    expect(totpCode(RFC_URI, 20_000_000_000_000)).toBe('65353130')
    expect(totpCode(RFC_URI, 59_000 - 30_000, 1)).toBe('94287082')
  })
})
