/** `GET /api/mail/status`: whether the instance sends e-mail, to anyone, without credentials. */
import { describe, expect, it } from 'vitest'
import { openTestInstance } from '../testing/test-instance.js'

describe('GET /api/mail/status', () => {
  it.each([
    ['without SMTP_URL: not configured', {}, false],
    [
      'with SMTP_URL: configured',
      { SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'Stats <stats@example.com>' },
      true,
    ],
  ])('%s', async (_name, env, configured) => {
    const t = await openTestInstance({ env })
    try {
      const answer = await t.app.inject({ method: 'GET', url: '/api/mail/status' })
      expect(answer.statusCode).toBe(200)
      expect(answer.json()).toEqual({ success: true, data: { configured } })
    } finally {
      await t.close()
    }
  })
})
