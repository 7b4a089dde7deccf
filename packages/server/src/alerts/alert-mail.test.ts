/**
 * Alert rules that mail: through the real app with a real SMTP server in this process, on SQLite +
 * chDB and on PostgreSQL + chDB, a rule naming e-mail recipients fires on tracked pageviews and each recipient gets one mail
 * (both parts) saying which figure crossed which threshold over which window, with a link to the
 * site's report; it does not mail again while the condition holds. Invalid recipients are a 400
 * naming `emailRecipients`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { type SmtpReceiver, startSmtpReceiver } from '../testing/smtp-receiver.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

describe.each([
  ['SQLite', false],
  ['PostgreSQL', true],
])('alert e-mails on %s', (_name, postgres) => {
  let t: TestInstance
  let receiver: SmtpReceiver
  let cookie: string
  let apiKey: string
  let site: Site
  let now = Date.parse('2026-04-02T12:00:00.000Z')

  beforeAll(async () => {
    receiver = await startSmtpReceiver()
    t = await openTestInstance({
      postgres,
      clock: () => now,
      workers: false,
      env: { SMTP_URL: receiver.url, BASE_URL: 'https://pathlight.example' },
    })
    const seeded = await t.seed()
    cookie = seeded.cookie
    apiKey = seeded.apiKey
    site = seeded.site
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    await receiver?.close()
  })

  const deliver = async () => {
    const runner = t.services.mailRunner
    if (!runner) throw new Error('mail is not configured')
    const before = receiver.received.length
    let total = 0
    for (let n = await runner.runOnce(); n > 0; n = await runner.runOnce()) total += n
    return (await receiver.waitFor(before + total)).slice(before)
  }

  it('refuses invalid recipients with a 400 naming the field', async () => {
    for (const emailRecipients of [
      ['nope'],
      'a@example.com',
      Array.from({ length: 21 }, (_, i) => `p${i}@example.com`),
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/sites/${site.siteId}/alerts`,
        headers: { cookie },
        payload: {
          name: 'x',
          metric: 'pageviews',
          windowMinutes: 60,
          comparison: 'above',
          threshold: 1,
          emailRecipients,
        },
      })
      expect(response.statusCode, response.body).toBe(400)
      expect(JSON.stringify(response.json().details)).toContain('emailRecipients')
    }
  })

  it('mails each recipient once when the rule fires', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/alerts`,
      headers: { cookie },
      payload: {
        name: 'Traffic spike',
        metric: 'pageviews',
        windowMinutes: 60,
        comparison: 'above',
        threshold: 3,
        emailRecipients: ['OnCall@Example.com', 'lead@example.com'],
      },
    })
    expect(created.statusCode, created.body).toBe(201)
    expect(created.json().data.emailRecipients).toEqual(['oncall@example.com', 'lead@example.com'])
    for (let i = 0; i < 5; i++) {
      now += 60_000
      const tracked = await t.track(
        site,
        { hostname: 'example.com', pathname: `/p${i}`, user_id: `v${i}` },
        { apiKey },
      )
      expect(tracked.statusCode, tracked.body).toBe(200)
    }
    await t.services.buffer.flush()
    const result = await t.services.alerts.evaluate()
    expect(result.fired).toHaveLength(1)
    const mails = await deliver()
    expect(mails.map((m) => m.to[0]).sort()).toEqual(['lead@example.com', 'oncall@example.com'])
    for (const mail of mails) {
      expect(mail.subject).toBe('Alert on example.com: Traffic spike')
      expect(mail.text).toContain(
        'Pageviews on example.com rose to 5 in the last 1 hour, above the threshold of 3.',
      )
      expect(mail.html).toContain(
        'Pageviews on example.com rose to 5 in the last 1 hour, above the threshold of 3.',
      )
      expect(mail.text).toContain(
        `Open the report: https://pathlight.example/sites/${site.siteId}?period=custom&from=2026-04-02&to=2026-04-02&tz=UTC`,
      )
    }
    // Still above: no new mail until it has dropped below and crossed again.
    now += 60_000
    expect((await t.services.alerts.evaluate()).fired).toEqual([])
    expect(await deliver()).toEqual([])
  })
})
