/**
 * Webhook receivers: check that a delivery was signed by your Pathlight instance with the shared secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

const HEX_SHA256 = /^[0-9a-f]{64}$/

/**
 * Verify a webhook signature in constant time. The signature is the lowercase hex HMAC-SHA256 of the exact
 * body bytes, keyed with the webhook's secret. Pass the raw body as received (a string is hashed as UTF-8),
 * not a re-serialized parsed object: any change of whitespace or key order breaks the signature.
 *
 * @param body the raw request body: a string, or the bytes (`Buffer` or `Uint8Array`)
 * @param signature the signature sent with the delivery: 64 lowercase hex characters
 * @param secret the webhook's signing secret (a string, or its bytes)
 * @returns true when the signature matches; false when it does not, or when any argument is malformed
 *   (wrong type, empty secret, signature not 64 lowercase hex characters). Never throws.
 */
export function verifyWebhookSignature(
  body: string | Uint8Array,
  signature: string,
  secret: string | Uint8Array,
): boolean {
  try {
    if (typeof body !== 'string' && !(body instanceof Uint8Array)) return false
    if (typeof secret !== 'string' && !(secret instanceof Uint8Array)) return false
    if (secret.length === 0) return false
    if (typeof signature !== 'string' || !HEX_SHA256.test(signature)) return false
    const expected = createHmac('sha256', secret).update(body).digest()
    return timingSafeEqual(expected, Buffer.from(signature, 'hex'))
  } catch {
    return false
  }
}
