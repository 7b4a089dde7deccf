/**
 * What the account page shows of an authenticator enrolment's `otpauth://totp/...` URI: its secret, for
 * apps that cannot scan the QR code, in groups of four characters as authenticator apps accept it typed.
 */

/**
 * The base32 secret of a TOTP URI, grouped in fours (`JBSW Y3DP EHPK 3PXP`).
 * @returns null when the text is not an `otpauth://` URI with a `secret` parameter
 */
export function totpSecretOf(uri: string): string | null {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return null
  }
  if (url.protocol !== 'otpauth:') return null
  const secret = url.searchParams.get('secret')
  if (!secret) return null
  return (secret.toUpperCase().match(/.{1,4}/g) ?? []).join(' ')
}
