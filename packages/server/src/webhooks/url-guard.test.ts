/**
 * The webhook SSRF guard on IPv6 addresses that carry an IPv4 address: each form is judged by the IPv4
 * address it reaches, when a webhook is saved (through the HTTP route), for a literal host at delivery
 * and inside the delivery's DNS lookup.
 */
import type { LookupAddress } from 'node:dns'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import { startWebhookReceiver } from '../testing/webhook-receiver.js'
import { postWebhook } from './post-webhook.js'
import { checkWebhookUrl, guardedLookup, isPublicAddress } from './url-guard.js'

/** Embedded-IPv4 forms whose IPv4 is loopback, link-local (cloud metadata), private or CGNAT. */
const REFUSED = [
  ['IPv4-compatible loopback', '::127.0.0.1'],
  ['IPv4-compatible metadata address', '::a9fe:a9fe'],
  ['IPv4-compatible private', '::10.0.0.1'],
  ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
  ['IPv4-mapped CGNAT', '::ffff:100.64.0.1'],
  ['IPv4-translated loopback', '::ffff:0:127.0.0.1'],
  ['NAT64 metadata address', '64:ff9b::169.254.169.254'],
  ['NAT64 private', '64:ff9b::192.168.1.1'],
  ['local-use NAT64, whatever it embeds', '64:ff9b:1::8.8.8.8'],
  ['6to4 of loopback', '2002:7f00:1::1'],
  ['6to4 of a private address', '2002:c0a8:101::1'],
  ['Teredo with a loopback client (stored inverted)', '2001:0:4136:e378:8000:63bf:80ff:fffe'],
  ['Teredo with a private server', '2001:0:a00:1:0:0:f7f7:f7f7'],
  ['ISATAP with a private IPv4', '2606:4700::5efe:10.0.0.1'],
  ['ISATAP (global u bit) with the metadata address', '2606:4700::200:5efe:169.254.169.254'],
  ['ISATAP on a link-local prefix', 'fe80::5efe:8.8.8.8'],
] as const

/** The same forms carrying a public IPv4 address reach it, as any public address. */
const ACCEPTED = [
  ['IPv4-mapped public', '::ffff:8.8.8.8'],
  ['NAT64 public', '64:ff9b::8.8.8.8'],
  ['6to4 of a public address', '2002:808:808::1'],
  ['Teredo with public server and client', '2001:0:808:808:0:0:f7f7:f7f7'],
  ['ISATAP with a public IPv4', '2606:4700::200:5efe:8.8.8.8'],
  ['plain public IPv6', '2606:4700:4700::1111'],
] as const

describe('isPublicAddress on IPv6 with an embedded IPv4 address', () => {
  it.each(REFUSED)('refuses %s (%s)', (_name, address) => {
    expect(isPublicAddress(address)).toBe(false)
  })
  it.each(ACCEPTED)('accepts %s (%s)', (_name, address) => {
    expect(isPublicAddress(address)).toBe(true)
  })
})

describe('checkWebhookUrl', () => {
  it.each(REFUSED)('refuses a URL on %s, however the URL writes it', async (_name, address) => {
    const url = `http://[${address}]/hook`
    // WHATWG URL rewrites the host (`[::127.0.0.1]` becomes `[::7f00:1]`): the guard sees that form.
    await expect(checkWebhookUrl(url, { allowPrivate: false })).rejects.toThrow(/private, loopback/)
    await expect(checkWebhookUrl(url, { allowPrivate: true })).resolves.toBeInstanceOf(URL)
  })
})

describe('at delivery', () => {
  it('refuses a literal embedded-IPv4 host without connecting, and an embedded answer of a lookup', async () => {
    const receiver = await startWebhookReceiver()
    try {
      const port = new URL(receiver.url).port
      // ::ffff:127.0.0.1 reaches the receiver on 127.0.0.1 through a dual-stack socket.
      for (const host of ['::ffff:7f00:1', '::7f00:1', '64:ff9b::7f00:1', '2002:7f00:1::1']) {
        const result = await postWebhook(
          `http://[${host}]:${port}/`,
          '{}',
          {},
          { timeoutMs: 2000, allowPrivate: false },
        )
        expect(result).toMatchObject({
          ok: false,
          statusCode: null,
          error: `refused: ${host} is not a public address`,
        })
      }
      expect(receiver.received).toHaveLength(0)
    } finally {
      await receiver.close()
    }
    // The lookup of a name that answers with such an address (a literal is its own answer) refuses it.
    const lookup = guardedLookup(false)
    const answer = await new Promise<{ error: Error | null; addresses?: LookupAddress[] }>((resolve) =>
      lookup('::7f00:1', { all: true }, (error, addresses) =>
        resolve({ error, addresses: addresses as unknown as LookupAddress[] }),
      ),
    )
    expect(answer.error?.message).toBe('refused: ::7f00:1 resolves to ::7f00:1')
  })
})

describe('POST /api/sites/{siteId}/webhooks', () => {
  let t: TestInstance
  beforeAll(async () => {
    t = await openTestInstance()
  })
  afterAll(() => t.close())

  it.each([
    'http://[::127.0.0.1]/',
    'http://[::a9fe:a9fe]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://[2002:a9fe:a9fe::1]/',
  ])('answers 400 naming url for %s', async (url) => {
    const { cookie, site } = await t.seed()
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/webhooks`,
      headers: { cookie },
      payload: { url, events: ['event.tracked'] },
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().details.fieldErrors.url[0]).toMatch(
      /^resolves to a private, loopback or link-local address/,
    )
  })
})
