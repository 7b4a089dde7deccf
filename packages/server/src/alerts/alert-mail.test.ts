/**
 * Alert rules that mail: through the real app with a real SMTP server in this process, on SQLite +
 * chDB and on PostgreSQL + chDB, a rule naming e-mail recipients fires on tracked pageviews and each recipient gets one mail
 * (both parts) saying which figure crossed which threshold over which window, with a link to the
 * site's report; it does not mail again while the condition holds. Only addresses that agreed get it:
 * a (verified) member at once, an outsider after confirming from the mailed link; toggling the threshold
 * mails nobody new; every alert mail carries an unsubscribe link and one-click `List-Unsubscribe`.
 * Invalid recipients are a 400 naming `emailRecipients`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EMAIL_VERIFICATION_SUBJECT } from '../mail/templates/email-verification.js'
import type { Site } from '../sites/site.js'
import { fromBool } from '../storage/metadata/schema.js'
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
  let organizationId: string
  let now = Date.parse('2026-04-02T12:00:00.000Z')

  beforeAll(async () => {
    receiver = await startSmtpReceiver({ ignoreSubjects: [EMAIL_VERIFICATION_SUBJECT] })
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
    organizationId = seeded.organizationId
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    await receiver?.close()
  })

  const deliver = async () => {
    const runner = t.services.mailRunner
    if (!runner) throw new Error('mail is not configured')
    const before = receiver.received.length
    const ignoredBefore = receiver.ignored
    let total = 0
    for (let n = await runner.runOnce(); n > 0; n = await runner.runOnce()) total += n
    // Address verification mails are not kept (`ignoreSubjects`).
    return (await receiver.waitFor(before + total - (receiver.ignored - ignoredBefore))).slice(before)
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

  const fireOnce = async (rule: string) => {
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
    expect((await t.services.alerts.evaluate()).fired).toEqual([rule])
    return deliver()
  }
  const patch = (rule: string, payload: object) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/sites/${site.siteId}/alerts/${rule}`,
      headers: { cookie },
      payload,
    })

  it('mails members at once and outsiders only once they confirm; every alert mail unsubscribes', async () => {
    const owner = await t.services.metadata.db
      .selectFrom('user')
      .select(['id', 'email'])
      .executeTakeFirstOrThrow()
    // A member counts once their address is verified.
    await t.services.metadata.db
      .updateTable('user')
      .set({ emailVerified: fromBool(true) })
      .where('id', '=', owner.id)
      .execute()
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
        emailRecipients: [owner.email, 'OnCall@Example.com', 'stranger@example.com'],
      },
    })
    expect(created.statusCode, created.body).toBe(201)
    const rule = created.json().data
    expect(created.json()).not.toHaveProperty('warnings')
    expect(rule.emailRecipients).toEqual([owner.email, 'oncall@example.com', 'stranger@example.com'])
    expect(rule.recipients).toEqual([
      { email: owner.email, status: 'active' },
      { email: 'oncall@example.com', status: 'pending' },
      { email: 'stranger@example.com', status: 'pending' },
    ])

    const confirmations = await deliver()
    expect(confirmations.map((m) => m.to[0]).sort()).toEqual(['oncall@example.com', 'stranger@example.com'])
    for (const mail of confirmations) {
      expect(mail.subject).toBe('Confirm the Pathlight alerts "Traffic spike" of example.com')
      expect(mail.html).toContain('https://pathlight.example/alerts/confirm/')
    }
    const oncallMail = confirmations.find((m) => m.to[0] === 'oncall@example.com')
    const token =
      /https:\/\/pathlight\.example\/alerts\/confirm\/([\w-]+)/.exec(oncallMail?.text ?? '')?.[1] ?? ''
    const link = await t.app.inject({ method: 'GET', url: `/api/alerts/subscriptions/${token}` })
    expect(link.json()).toEqual({
      email: 'oncall@example.com',
      siteDomain: 'example.com',
      ruleName: 'Traffic spike',
      status: 'pending',
    })
    const confirmed = await t.app.inject({
      method: 'POST',
      url: `/api/alerts/subscriptions/${token}/confirm`,
    })
    expect(confirmed.json().status).toBe('active')

    const mails = await fireOnce(rule.id)
    expect(mails.map((m) => m.to[0]).sort()).toEqual([owner.email, 'oncall@example.com'].sort())
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
      expect(mail.headers.get('list-unsubscribe')).toMatch(
        /^<https:\/\/pathlight\.example\/api\/alerts\/subscriptions\/[\w-]+\/unsubscribe>$/,
      )
      expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
      expect(mail.text).toMatch(/Unsubscribe: https:\/\/pathlight\.example\/alerts\/unsubscribe\/[\w-]+/)
    }
    // Still above: no new mail until it has dropped below and crossed again.
    now += 60_000
    expect((await t.services.alerts.evaluate()).fired).toEqual([])
    expect(await deliver()).toEqual([])

    // Toggling the threshold mails no stranger: no second confirmation, no alert to the pending address.
    expect((await patch(rule.id, { threshold: 1000 })).statusCode).toBe(200)
    expect((await patch(rule.id, { threshold: 3 })).json().data.recipients).toContainEqual({
      email: 'stranger@example.com',
      status: 'pending',
    })
    expect(await deliver()).toEqual([])

    // One-click unsubscribe from the header (a form body, no sign-in): the next firing leaves oncall out.
    const oncallAlert = mails.find((m) => m.to[0] === 'oncall@example.com')
    const endpoint = /^<https:\/\/pathlight\.example(\/\S+)>$/.exec(
      oncallAlert?.headers.get('list-unsubscribe') ?? '',
    )?.[1]
    const unsubscribed = await t.app.inject({
      method: 'POST',
      url: endpoint ?? '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    })
    expect(unsubscribed.statusCode, unsubscribed.body).toBe(200)
    expect(unsubscribed.json().status).toBe('unsubscribed')
    const again = await fireOnce(rule.id)
    expect(again.map((m) => m.to[0])).toEqual([owner.email])
  })

  it('refuses a sixth confirmation mail to one address in 24 hours, and saves nothing of that rule', async () => {
    const create = (n: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/sites/${site.siteId}/alerts`,
        headers: { cookie },
        payload: {
          name: `Budget ${n}`,
          metric: 'errors',
          windowMinutes: 60,
          comparison: 'above',
          threshold: 1,
          emailRecipients: ['often@example.com'],
        },
      })
    for (let n = 0; n < 5; n++) expect((await create(n)).statusCode).toBe(201)
    const refused = await create(5)
    expect(refused.statusCode).toBe(429)
    expect(refused.json().error).toBe(
      'Too many invitation and confirmation mails to often@example.com: at most 5 in 24 hours',
    )
    expect((await t.services.alerts.rules.list(site.siteId)).map((r) => r.name)).not.toContain('Budget 5')
    const confirmations = (await deliver()).filter((m) => m.to[0] === 'often@example.com')
    expect(confirmations).toHaveLength(5)
  })

  it("puts a removed member's alert mails on hold until they confirm, as an outsider's", async () => {
    const bea = await t.signUp('bea@example.com')
    const db = t.services.metadata.db
    await db
      .updateTable('user')
      .set({ emailVerified: fromBool(true) })
      .where('id', '=', bea.userId)
      .execute()
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/organizations/${organizationId}/members`,
      headers: { cookie },
      payload: { email: 'bea@example.com', role: 'member' },
    })
    expect(added.statusCode, added.body).toBe(201)
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/alerts`,
      headers: { cookie },
      payload: {
        name: 'For Bea',
        metric: 'errors',
        windowMinutes: 60,
        comparison: 'above',
        threshold: 1,
        emailRecipients: ['bea@example.com'],
      },
    })
    expect(created.json().data.recipients).toEqual([{ email: 'bea@example.com', status: 'active' }])
    await deliver()
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/organizations/${organizationId}/members/${bea.userId}`,
      headers: { cookie },
    })
    expect(removed.statusCode, removed.body).toBe(200)
    const rule = await t.services.alerts.rules.get(site.siteId, created.json().data.id)
    expect(rule.recipients).toEqual([{ email: 'bea@example.com', status: 'pending' }])
    const mails = await deliver()
    expect(mails.map((m) => [m.to[0], m.subject])).toEqual([
      ['bea@example.com', 'Confirm the Pathlight alerts "For Bea" of example.com'],
    ])
  })
})
