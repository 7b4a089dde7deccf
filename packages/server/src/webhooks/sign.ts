/**
 * Webhook signatures: lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the webhook's
 * secret, sent as `X-Pathlight-Signature`. Receivers compute the same over the raw body they received
 * and compare in constant time.
 */
import crypto from 'node:crypto'

/** @returns 64 lowercase hex characters */
export function signPayload(body: string | Uint8Array, secret: string): string {
  return crypto.createHmac('sha256', secret).update(body).digest('hex')
}

/** A new signing secret: `whsec_` + 32 random bytes, base64url. */
export const generateWebhookSecret = (): string => `whsec_${crypto.randomBytes(32).toString('base64url')}`
