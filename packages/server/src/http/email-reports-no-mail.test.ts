/**
 * Without SMTP_URL, the features that would send e-mail say so plainly: scheduling a report is refused
 * (503 naming SMTP_URL) and stores nothing; an alert rule naming e-mail recipients is saved with its
 * webhooks and answers a warning that it mails nobody. What sends no mail works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

describe('e-mail features without SMTP_URL', () => {
  let t: TestInstance
  let cookie: string
  let site: Site

  beforeAll(async () => {
    t = await openTestInstance({ workers: false, env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } })
    const seeded = await t.seed()
    cookie = seeded.cookie
    site = seeded.site
  }, 60_000)
  afterAll(() => t?.close())

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) })

  it('refuses to schedule a report, and lists none', async () => {
    const created = await call('POST', `/api/sites/${site.siteId}/email-reports`, {
      recipients: ['someone@example.com'],
      frequency: 'weekly',
    })
    expect(created.statusCode).toBe(503)
    expect(created.json().error).toBe('E-mail is not configured: set SMTP_URL')
    const listed = await call('GET', `/api/sites/${site.siteId}/email-reports`)
    expect(listed.statusCode).toBe(200)
    expect(listed.json()).toEqual({ success: true, data: [], meta: { total: 0, mailConfigured: false } })
    expect(await t.services.emailReportSender.sendDue()).toEqual({ reports: 0, mails: 0 })
  })

  it('saves an alert rule with e-mail recipients and its webhook, warning that it mails nobody', async () => {
    const rule = {
      name: 'Spike',
      metric: 'pageviews',
      windowMinutes: 60,
      comparison: 'above',
      threshold: 0,
    }
    const hook = await call('POST', `/api/sites/${site.siteId}/webhooks`, {
      url: 'http://127.0.0.1:9/alerts',
      events: ['alert.triggered'],
    })
    expect(hook.statusCode, hook.body).toBe(201)
    const mailed = await call('POST', `/api/sites/${site.siteId}/alerts`, {
      ...rule,
      emailRecipients: ['oncall@example.com'],
    })
    expect(mailed.statusCode, mailed.body).toBe(201)
    const answer = mailed.json()
    expect(answer.warnings).toEqual([
      'E-mail is not configured (set SMTP_URL): the rule was saved and calls its webhooks, but mails nobody until it is',
    ])
    expect(answer.data.emailRecipients).toEqual(['oncall@example.com'])
    expect(answer.data.recipients).toEqual([{ email: 'oncall@example.com', status: 'pending' }])
    const plain = await call('POST', `/api/sites/${site.siteId}/alerts`, rule)
    expect(plain.statusCode, plain.body).toBe(201)
    expect(plain.json()).not.toHaveProperty('warnings')
    const changed = await call('PATCH', `/api/sites/${site.siteId}/alerts/${answer.data.id}`, {
      threshold: 1,
    })
    expect(changed.statusCode, changed.body).toBe(200)
    expect(changed.json()).not.toHaveProperty('warnings')
    const listed = (await call('GET', `/api/sites/${site.siteId}/alerts`)).json()
    expect(listed.data).toHaveLength(2)
    expect(listed.meta).toEqual({ total: 2, mailConfigured: false })

    // It fires: the webhook is queued, no mail is.
    await t.track(site, { hostname: 'example.com', pathname: '/' })
    await t.track(site, { hostname: 'example.com', pathname: '/2' })
    await t.services.buffer.flush()
    expect((await t.services.alerts.evaluate()).fired).toContain(answer.data.id)
    const deliveries = await t.services.metadata.db
      .selectFrom('webhook_delivery')
      .select('event_type')
      .execute()
    expect(deliveries.map((d) => d.event_type)).toContain('alert.triggered')
    expect(await t.services.metadata.db.selectFrom('mail_message').select('id').execute()).toEqual([])
  })
})
