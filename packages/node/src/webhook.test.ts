/**
 * verifyWebhookSignature: true only for the lowercase hex HMAC-SHA256 of the exact body bytes under the
 * secret; false (never an exception) for anything malformed.
 */
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { verifyWebhookSignature } from './webhook.js'

const secret = 'whsec_test_secret'
const body = '{"event":"goal.completed","site_id":1,"name":"Signup","at":"2025-01-01T00:00:00Z"}'
const sign = (data: string | Uint8Array, key: string | Uint8Array = secret) =>
  createHmac('sha256', key).update(data).digest('hex')

describe('verifyWebhookSignature', () => {
  it('accepts the signature of the exact body, as a string, a Buffer or a Uint8Array', () => {
    const signature = sign(body)
    expect(signature).toMatch(/^[0-9a-f]{64}$/)
    expect(verifyWebhookSignature(body, signature, secret)).toBe(true)
    expect(verifyWebhookSignature(Buffer.from(body), signature, secret)).toBe(true)
    expect(verifyWebhookSignature(new TextEncoder().encode(body), signature, secret)).toBe(true)
    expect(verifyWebhookSignature(body, signature, Buffer.from(secret))).toBe(true)
  })

  it('hashes strings as UTF-8 and binary bodies byte for byte', () => {
    const text = '{"name":"café ☕"}'
    expect(verifyWebhookSignature(text, sign(Buffer.from(text, 'utf8')), secret)).toBe(true)
    const bytes = Uint8Array.from([0, 255, 128, 10])
    expect(verifyWebhookSignature(bytes, sign(bytes), secret)).toBe(true)
    expect(verifyWebhookSignature(Buffer.from(bytes).toString('latin1'), sign(bytes), secret)).toBe(false)
  })

  it('rejects a changed body, a different secret or a different signature', () => {
    const signature = sign(body)
    expect(verifyWebhookSignature(`${body} `, signature, secret)).toBe(false)
    expect(verifyWebhookSignature(JSON.stringify(JSON.parse(body), null, 2), signature, secret)).toBe(false)
    expect(verifyWebhookSignature(body, signature, 'another secret')).toBe(false)
    const flipped = (signature[0] === '0' ? '1' : '0') + signature.slice(1)
    expect(verifyWebhookSignature(body, flipped, secret)).toBe(false)
  })

  it('returns false for malformed input instead of throwing', () => {
    const signature = sign(body)
    const cases: [unknown, unknown, unknown][] = [
      [body, signature.toUpperCase(), secret],
      [body, `sha256=${signature}`, secret],
      [body, signature.slice(0, 63), secret],
      [body, `${signature}00`, secret],
      [body, `${signature.slice(0, 63)}g`, secret],
      [body, '', secret],
      [body, undefined, secret],
      [body, null, secret],
      [body, 42, secret],
      [body, Buffer.from(signature, 'hex'), secret],
      [body, signature, ''],
      [body, signature, undefined],
      [body, signature, 42],
      [undefined, signature, secret],
      [null, signature, secret],
      [{ event: 'goal.completed' }, signature, secret],
      [42, signature, secret],
    ]
    for (const [b, s, k] of cases) {
      const verify = verifyWebhookSignature as (body: unknown, signature: unknown, secret: unknown) => boolean
      expect(() => verify(b, s, k)).not.toThrow()
      expect(verify(b, s, k)).toBe(false)
    }
  })
})
