/**
 * Without SMTP_URL, the features that would send e-mail say so plainly (503 naming SMTP_URL) and store
 * nothing: scheduling a report, and an alert rule naming e-mail recipients. What sends no mail works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

describe('e-mail features without SMTP_URL', () => {
  let t: TestInstance
  let cookie: string
  let site: Site

  beforeAll(async () => {
    t = await openTestInstance({ workers: false })
    const seeded = await t.seed()
    cookie = seeded.cookie
    site = seeded.site
  }, 60_000)
  afterAll(() => t?.close())

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
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

  it('refuses an alert rule with e-mail recipients, and takes one without', async () => {
    const rule = {
      name: 'Spike',
      metric: 'pageviews',
      windowMinutes: 60,
      comparison: 'above',
      threshold: 100,
    }
    const mailed = await call('POST', `/api/sites/${site.siteId}/alerts`, {
      ...rule,
      emailRecipients: ['oncall@example.com'],
    })
    expect(mailed.statusCode).toBe(503)
    expect(mailed.json().error).toBe('E-mail is not configured: set SMTP_URL')
    const plain = await call('POST', `/api/sites/${site.siteId}/alerts`, rule)
    expect(plain.statusCode, plain.body).toBe(201)
    expect(plain.json().data.emailRecipients).toEqual([])
    expect((await call('GET', `/api/sites/${site.siteId}/alerts`)).json().data).toHaveLength(1)
  })
})
