/**
 * Who a pending two-factor sign-in belongs to. After the right password of an account with two-factor
 * sign-in, Better Auth answers `twoFactorRedirect` and sets a signed `two_factor` cookie naming a
 * verification row (`2fa-<random>`) whose value is the user id; the code that follows
 * (`verify-totp`, `verify-backup-code`) carries only that cookie. The authentication throttle counts
 * code attempts per account, so it needs the user before Better Auth is asked. The Cookie header is
 * read by the parser Better Auth itself reads it with (`better-call`'s `parseCookies`: the first of
 * repeated names, surrounding double quotes dropped, URL-decoded), so every spelling of the cookie that
 * Better Auth accepts names the same user here.
 */
import crypto from 'node:crypto'
import { parseCookies } from 'better-call'
import type { Auth } from './better-auth.js'

/** The cookie's name as Better Auth sets it (prefixed `__Secure-` when BASE_URL is https). */
async function challengeCookieName(auth: Auth): Promise<string> {
  return (await auth.$context).createAuthCookie('two_factor').name
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
  const signed = parseCookies(cookieHeader).get(await challengeCookieName(auth))
  if (!signed) return undefined
  const context = await auth.$context
  const identifier = verifiedValue(signed, context.secret)
  if (identifier === undefined || !identifier.startsWith('2fa-')) return undefined
  const row = await context.internalAdapter.findVerificationValue(identifier)
  if (!row || new Date(row.expiresAt).getTime() <= Date.now()) return undefined
  return row.value
}
