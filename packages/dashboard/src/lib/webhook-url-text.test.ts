import { describe, expect, it } from 'vitest'
import { webhookUrlErrors, webhookUrlHint } from './webhook-url-text'

describe('webhook URL text', () => {
  it('names WEBHOOKS_ALLOW_PRIVATE after a refusal of a local address, and leaves other messages', () => {
    expect(
      webhookUrlErrors([
        'url: resolves to a private, loopback or link-local address (127.0.0.1)',
        'url: too long',
      ]),
    ).toEqual([
      'url: resolves to a private, loopback or link-local address (127.0.0.1). To send webhooks to your own network, start the server with WEBHOOKS_ALLOW_PRIVATE=true.',
      'url: too long',
    ])
    expect(webhookUrlErrors(undefined)).toBeUndefined()
  })

  it('says http is accepted as well as https', () => {
    expect(webhookUrlHint).toContain('http:// or https://')
    expect(webhookUrlHint).toContain('WEBHOOKS_ALLOW_PRIVATE=true')
  })
})
