/**
 * Heatmap viewing tokens: what a signed viewing link carries in its fragment (`#pathlight-heatmap=<token>`)
 * so that the tracker's overlay, on the site's own page and with no session, may read that one heatmap.
 * A token is `<payload>.<signature>`: the payload is base64url JSON `{s: siteId, q: the heatmap query as
 * asked, e: expiry in epoch ms}`, the signature base64url HMAC-SHA256 of the payload text with a key
 * derived from the instance secret (so a token is good on every node of the instance and on no other).
 * Valid {@link VIEW_TOKEN_TTL_MS}; nothing is stored, so a token cannot be revoked before it expires.
 */
import crypto from 'node:crypto'

/** How long a viewing link works, ms (10 minutes). */
export const VIEW_TOKEN_TTL_MS = 10 * 60_000

/** What a token grants: one site's heatmap for the query it was made with. */
export interface ViewGrant {
  siteId: number
  /** The heatmap's query string parameters as asked (parsed again when the token is used). */
  query: Record<string, string>
  /** Expiry, epoch ms. */
  expiresAt: number
}

const keyOf = (secret: string) =>
  crypto.createHmac('sha256', secret).update('pathlight heatmap view').digest()
const sign = (secret: string, payload: string) =>
  crypto.createHmac('sha256', keyOf(secret)).update(payload).digest('base64url')

/** A token for `grant`, signed with `secret` (the instance secret). */
export function createViewToken(secret: string, grant: ViewGrant): string {
  const payload = Buffer.from(
    JSON.stringify({ s: grant.siteId, q: grant.query, e: grant.expiresAt }),
  ).toString('base64url')
  return `${payload}.${sign(secret, payload)}`
}

/** The grant of `token` when its signature holds and it has not expired at `nowMs`; else null. */
export function verifyViewToken(secret: string, token: string, nowMs: number): ViewGrant | null {
  const [payload, signature, extra] = token.split('.')
  if (!payload || !signature || extra !== undefined) return null
  const expected = Buffer.from(sign(secret, payload))
  const given = Buffer.from(signature)
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null
  let value: unknown
  try {
    value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  } catch {
    return null
  }
  if (typeof value !== 'object' || value === null) return null
  const { s, q, e } = value as { s?: unknown; q?: unknown; e?: unknown }
  if (typeof s !== 'number' || typeof e !== 'number' || typeof q !== 'object' || q === null) return null
  if (e <= nowMs) return null
  const query: Record<string, string> = {}
  for (const [k, v] of Object.entries(q)) if (typeof v === 'string') query[k] = v
  return { siteId: s, query, expiresAt: e }
}
