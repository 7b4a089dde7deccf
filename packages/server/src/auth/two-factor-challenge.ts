/**
 * Who a pending two-factor sign-in belongs to. After the right password of an account with two-factor
 * sign-in, Better Auth answers `twoFactorRedirect` and sets a signed `two_factor` cookie naming a
 * verification row (`2fa-<random>`) whose value is the user id; the code that follows
 * (`verify-totp`, `verify-backup-code`) carries only that cookie. The authentication throttle counts
 * code attempts per account, so it needs the user before Better Auth is asked.
 */
import crypto from 'node:crypto'
import type { Auth } from './better-auth.js'

/** The cookie's name as Better Auth sets it (prefixed `__Secure-` when BASE_URL is https). */
async function challengeCookieName(auth: Auth): Promise<string> {
  return (await auth.$context).createAuthCookie('two_factor').name
}

/** The value of cookie `name` in a Cookie header, URL-decoded; undefined when absent or malformed. */
function cookieValue(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const separator = part.indexOf('=')
    if (separator < 0 || part.slice(0, separator).trim() !== name) continue
    try {
      return decodeURIComponent(part.slice(separator + 1).trim())
    } catch {
      return undefined
    }
  }
  return undefined
}

/**
 * The signed value `<value>.<base64 HMAC-SHA256 of value>` (Better Auth's signed cookies) checked with
 * the instance secret. @returns the value, or undefined when the signature does not match
 */
function verifiedValue(signed: string, secret: string): string | undefined {
  const dot = signed.lastIndexOf('.')
  if (dot < 1) return undefined
  const value = signed.slice(0, dot)
  const given = Buffer.from(signed.slice(dot + 1), 'base64')
  const expected = crypto.createHmac('sha256', secret).update(value).digest()
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? value : undefined
}

/**
 * The user whose two-factor sign-in is pending in this request's `two_factor` cookie.
 * @param cookieHeader the request's Cookie header
 * @returns the user id, or undefined when there is no such cookie, its signature is wrong, or its
 *   challenge has expired or was used
 */
export async function pendingTwoFactorUser(
  auth: Auth,
  cookieHeader: string | undefined,
): Promise<string | undefined> {
  if (!cookieHeader) return undefined
  const signed = cookieValue(cookieHeader, await challengeCookieName(auth))
  if (signed === undefined) return undefined
  const context = await auth.$context
  const identifier = verifiedValue(signed, context.secret)
  if (identifier === undefined || !identifier.startsWith('2fa-')) return undefined
  const row = await context.internalAdapter.findVerificationValue(identifier)
  if (!row || new Date(row.expiresAt).getTime() <= Date.now()) return undefined
  return row.value
}
