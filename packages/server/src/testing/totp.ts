/**
 * Test support: time-based one-time passwords as an authenticator app computes them (RFC 6238 over
 * RFC 4226 HOTP, HMAC-SHA-1), from the `otpauth://totp/...` URI a server hands out at enrolment.
 */
import crypto from 'node:crypto'

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** RFC 4648 base32 (upper or lower case, padding optional) to bytes. @throws on a foreign character */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, '').toUpperCase()
  const bytes: number[] = []
  let bits = 0
  let value = 0
  for (const char of clean) {
    const index = BASE32.indexOf(char)
    if (index < 0) throw new Error(`not base32: ${char}`)
    value = (value << 5) | index
    bits += 5
    if (bits >= 8) {
      bits -= 8
      bytes.push((value >>> bits) & 0xff)
    }
  }
  return Buffer.from(bytes)
}

/** An `otpauth://totp/` URI's parts: the key bytes, digits and period (seconds). @throws when malformed */
export function parseTotpUri(uri: string): {
  key: Buffer
  digits: number
  period: number
  issuer: string | null
  label: string
} {
  const url = new URL(uri)
  if (url.protocol !== 'otpauth:' || url.host !== 'totp') throw new Error(`not a TOTP URI: ${uri}`)
  const secret = url.searchParams.get('secret')
  if (!secret) throw new Error(`no secret in ${uri}`)
  return {
    key: base32Decode(secret),
    digits: Number(url.searchParams.get('digits') ?? 6),
    period: Number(url.searchParams.get('period') ?? 30),
    issuer: url.searchParams.get('issuer'),
    label: decodeURIComponent(url.pathname.slice(1)),
  }
}

/** The HOTP value of `key` at `counter` (RFC 4226 section 5.3), zero-padded to `digits`. */
export function hotp(key: Buffer, counter: number, digits = 6): string {
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(counter))
  const mac = crypto.createHmac('sha1', key).update(message).digest()
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f
  const binary = mac.readUInt32BE(offset) & 0x7fffffff
  return String(binary % 10 ** digits).padStart(digits, '0')
}

/**
 * The code an authenticator app shows for `uri` at `atMs` (epoch ms, default now), optionally `steps`
 * periods later (a negative or far-off step makes a code the server must refuse).
 */
export function totpCode(uri: string, atMs: number = Date.now(), steps = 0): string {
  const { key, digits, period } = parseTotpUri(uri)
  return hotp(key, Math.floor(atMs / 1000 / period) + steps, digits)
}
