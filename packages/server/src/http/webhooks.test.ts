/**
 * Webhooks end to end in one process (SQLite + chDB, a real receiver on loopback, the worker driven by
 * hand with an injectable clock): management, signatures, retries with backoff, timeouts, the delivery
 * log, redelivery and automatic disabling.
 */
import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import { startWebhookReceiver, type WebhookReceiver } from '../testing/webhook-receiver.js'
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../webhooks/retry-schedule.js'

let t: TestInstance
let receiver: WebhookReceiver
let cookie: string
let userId: string
let organizationId: string
let now = Date.parse('2026-11-20T10:00:00.000Z')

beforeAll(async () => {
  t = await openTestInstance({
    clock: () => now,
    workers: false,
    env: { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '500' },
  })
  ;({ cookie, userId, organizationId } = await t.seed())
  receiver = await startWebhookReceiver()
})
afterAll(async () => {
  await receiver.close()
  await t.close()
})

const api = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: { cookie },
    ...(payload === undefined ? {} : { payload: payload as object }),
  })

async function siteWithWebhook(events: string[]): Promise<{ site: Site; id: string; secret: string }> {
  const site = await t.createSite(cookie, organizationId)
  const created = await api('POST', `/api/sites/${site.siteId}/webhooks`, { url: receiver.url, events })
  expect(created.statusCode).toBe(201)
  return { site, id: created.json().data.id, secret: created.json().data.secret }
}

/** Run the worker until nothing is due at the current clock. */
async function deliverDue() {
  while ((await t.services.deliveries.runOnce()) > 0) {}
}

/**
 * The site's audit trail as `GET /api/sites/:siteId/audit-log` answers it (`body`), and its entries
 * about webhooks and alert rules, oldest first.
 */
async function auditTrail(site: Site) {
  const response = await api('GET', `/api/sites/${site.siteId}/audit-log`)
  expect(response.statusCode, response.body).toBe(200)
  const entries = (response.json().data as { action: string }[])
    .filter((entry) => /^(webhook|alert_rule)\./.test(entry.action))
    .reverse()
  return { body: response.body, entries }
}

const hmac = (body: string, secret: string) => crypto.createHmac('sha256', secret).update(body).digest('hex')

describe('managing webhooks', () => {
  it('creates with a secret shown once, lists, updates, rotates and deletes', async () => {
    const site = await t.createSite(cookie, organizationId)
    const base = `/api/sites/${site.siteId}/webhooks`
    const created = await api('POST', base, {
      url: receiver.url,
      events: ['session.created'],
      description: 'CRM',
    })
    expect(created.statusCode).toBe(201)
    const hook = created.json().data
    expect(hook).toMatchObject({
      url: receiver.url,
      events: ['session.created'],
      enabled: true,
      description: 'CRM',
    })
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)
    const list = await api('GET', base)
    expect(list.json().data).toHaveLength(1)
    expect(list.body).not.toContain(hook.secret)
    expect((await api('GET', `${base}/${hook.id}`)).body).not.toContain(hook.secret)
    const updated = await api('PATCH', `${base}/${hook.id}`, {
      events: ['event.tracked', 'alert.triggered'],
      enabled: false,
    })
    expect(updated.json().data).toMatchObject({
      events: ['event.tracked', 'alert.triggered'],
      enabled: false,
    })
    const rotated = await api('POST', `${base}/${hook.id}/rotate-secret`)
    expect(rotated.json().data.secret).not.toBe(hook.secret)
    expect((await api('DELETE', `${base}/${hook.id}`)).json()).toEqual({ success: true })
    expect((await api('GET', `${base}/${hook.id}`)).statusCode).toBe(404)
  })

  it('audits creation, update, secret rotation, redelivery and deletion with the actor, never a secret', async () => {
    receiver.respond(() => 200)
    const { site, id, secret } = await siteWithWebhook(['session.created'])
    const base = `/api/sites/${site.siteId}/webhooks/${id}`
    const host = new URL(receiver.url).host
    expect((await api('PATCH', base, { description: 'CRM', enabled: false })).statusCode).toBe(200)
    const rotated = await api('POST', `${base}/rotate-secret`)
    expect(rotated.statusCode).toBe(200)
    expect((await api('PATCH', base, { enabled: true })).statusCode).toBe(200)
    await t.track(site, { user_id: 'gina' })
    await deliverDue()
    const [delivered] = (await api('GET', `${base}/deliveries`)).json().data
    const again = await api('POST', `${base}/deliveries/${delivered.id}/redeliver`)
    expect(again.statusCode).toBe(202)
    await deliverDue()
    expect((await api('DELETE', base)).statusCode).toBe(200)

    const { body, entries } = await auditTrail(site)
    const scope = { organizationId, siteId: site.siteId, actorUserId: userId, actorEmail: expect.any(String) }
    expect(entries).toEqual([
      expect.objectContaining({
        ...scope,
        action: 'webhook.created',
        details: { webhookId: id, host, events: ['session.created'], description: '' },
      }),
      expect.objectContaining({
        ...scope,
        action: 'webhook.updated',
        details: {
          webhookId: id,
          host,
          events: ['session.created'],
          enabled: false,
          changed: ['description', 'enabled'],
        },
      }),
      expect.objectContaining({ ...scope, action: 'webhook.secret_rotated', details: { webhookId: id } }),
      expect.objectContaining({
        ...scope,
        action: 'webhook.updated',
        details: expect.objectContaining({ webhookId: id, enabled: true, changed: ['enabled'] }),
      }),
      expect.objectContaining({
        ...scope,
        action: 'webhook.redelivered',
        details: {
          webhookId: id,
          deliveryId: delivered.id,
          redeliveryId: again.json().data.deliveryId,
          eventType: 'session.created',
        },
      }),
      expect.objectContaining({
        ...scope,
        action: 'webhook.deleted',
        details: { webhookId: id, host, events: ['session.created'] },
      }),
    ])
    expect(body).not.toContain(secret)
    expect(body).not.toContain(rotated.json().data.secret)
    expect(body).not.toContain('whsec_')
  })

  it('audits nothing for a refused change', async () => {
    const { site, id } = await siteWithWebhook(['session.created'])
    const base = `/api/sites/${site.siteId}/webhooks`
    expect((await api('PATCH', `${base}/${id}`, { events: [] })).statusCode).toBe(400)
    expect((await api('POST', `${base}/${crypto.randomUUID()}/rotate-secret`)).statusCode).toBe(404)
    expect((await api('DELETE', `${base}/${crypto.randomUUID()}`)).statusCode).toBe(404)
    expect((await auditTrail(site)).entries.map((e) => e.action)).toEqual(['webhook.created'])
  })

  it.each([
    [{ url: 'ftp://example.com/x', events: ['session.created'] }, 'url'],
    [{ url: 'not a url', events: ['session.created'] }, 'url'],
    [{ url: 'https://example.com/x', events: [] }, 'events'],
    [{ url: 'https://example.com/x', events: ['page.viewed'] }, 'events'],
    [{ events: ['session.created'] }, 'url'],
  ])('rejects %j naming %s', async (body, field) => {
    const site = await t.createSite(cookie, organizationId)
    const response = await api('POST', `/api/sites/${site.siteId}/webhooks`, body)
    expect(response.statusCode).toBe(400)
    expect(response.json().details.fieldErrors[field]).toBeDefined()
  })
})

describe('delivering', () => {
  it('delivers session.created and event.tracked, signed so that an independent HMAC accepts them', async () => {
    receiver.respond(() => 200)
    const before = receiver.received.length
    const { site, secret } = await siteWithWebhook(['session.created', 'event.tracked'])
    expect((await t.track(site, { pathname: '/landing', user_id: 'alice' })).statusCode).toBe(200)
    expect(
      (
        await t.track(site, {
          type: 'custom_event',
          event_name: 'signup',
          properties: '{"plan":"pro"}',
          user_id: 'alice',
        })
      ).statusCode,
    ).toBe(200)
    await deliverDue()
    const got = receiver.received.slice(before)
    expect(got.map((r) => r.headers['x-pathlight-event']).sort()).toEqual([
      'event.tracked',
      'session.created',
    ])
    for (const request of got) {
      expect(request.headers['x-pathlight-signature']).toBe(hmac(request.body, secret))
      expect(request.headers['x-pathlight-delivery']).toMatch(/^[0-9a-f-]{36}$/)
      expect(request.headers['x-pathlight-timestamp']).toBe(new Date(now).toISOString())
    }
    const session = JSON.parse(
      got.find((r) => r.headers['x-pathlight-event'] === 'session.created')?.body ?? '{}',
    )
    expect(session).toMatchObject({
      type: 'session.created',
      siteId: site.siteId,
      createdAt: new Date(now).toISOString(),
      data: { userId: 'alice', entryPage: '/landing', browser: 'Chrome', deviceType: 'desktop' },
    })
    const event = JSON.parse(
      got.find((r) => r.headers['x-pathlight-event'] === 'event.tracked')?.body ?? '{}',
    )
    expect(event.data).toMatchObject({ eventName: 'signup', properties: { plan: 'pro' }, userId: 'alice' })
    expect(event.data.sessionId).toBe(session.data.sessionId)
  })

  it('delivers goal.converted once per session and goal, signed', async () => {
    receiver.respond(() => 200)
    const { site, secret } = await siteWithWebhook(['goal.converted'])
    const goal = async (body: object) =>
      (await api('POST', `/api/sites/${site.siteId}/goals`, body)).json().goalId as number
    const pricing = await goal({ name: 'Pricing', goalType: 'path', config: { pathPattern: '/pricing' } })
    const signup = await goal({
      name: 'Pro signup',
      goalType: 'event',
      config: { eventName: 'signup', eventPropertyKey: 'plan', eventPropertyValue: 'pro' },
    })
    const before = receiver.received.length
    await t.track(site, { pathname: '/home', user_id: 'gina' })
    await t.track(site, { pathname: '/pricing', user_id: 'gina' })
    await t.track(site, { pathname: '/pricing', user_id: 'gina' })
    await t.track(site, {
      type: 'custom_event',
      event_name: 'signup',
      properties: '{"plan":"free"}',
      user_id: 'gina',
    })
    await t.track(site, {
      type: 'custom_event',
      event_name: 'signup',
      properties: '{"plan":"pro"}',
      user_id: 'gina',
    })
    await t.track(site, { pathname: '/pricing', user_id: 'hank' })
    await deliverDue()
    const got = receiver.received.slice(before)
    expect(got.every((r) => r.headers['x-pathlight-event'] === 'goal.converted')).toBe(true)
    for (const request of got)
      expect(request.headers['x-pathlight-signature']).toBe(hmac(request.body, secret))
    const conversions = got.map((r) => JSON.parse(r.body).data).map((d) => [d.userId, d.goalId, d.goalName])
    expect(conversions.sort()).toEqual(
      [
        ['gina', pricing, 'Pricing'],
        ['gina', signup, 'Pro signup'],
        ['hank', pricing, 'Pricing'],
      ].sort(),
    )
    const first = JSON.parse(got[0]?.body ?? '{}').data
    expect(first).toMatchObject({
      goalType: expect.any(String),
      sessionId: expect.any(String),
      event: expect.any(Object),
    })
  })

  it('delivers goal.converted for a scroll-depth goal when an engagement event reaches the depth', async () => {
    receiver.respond(() => 200)
    const { site } = await siteWithWebhook(['goal.converted'])
    const created = await api('POST', `/api/sites/${site.siteId}/goals`, {
      name: 'Read pricing',
      goalType: 'path',
      config: { pathPattern: '/pricing', scrollDepth: 75 },
    })
    const read = created.json().goalId as number
    const engaged = (user_id: string, pathname: string, scroll_depth: number) =>
      t.track(site, { type: 'engagement', pathname, user_id, scroll_depth, engagement_time: 4000 })
    const before = receiver.received.length
    await t.track(site, { pathname: '/pricing', user_id: 'ivy' })
    await engaged('ivy', '/pricing', 74)
    await engaged('jon', '/pricing', 75)
    await engaged('jon', '/pricing', 100)
    await engaged('kim', '/docs', 100)
    await deliverDue()
    const conversions = receiver.received.slice(before).map((r) => JSON.parse(r.body).data)
    expect(conversions.map((d) => [d.userId, d.goalId])).toEqual([['jon', read]])
    expect(conversions[0]).toMatchObject({
      goalType: 'path',
      event: { type: 'engagement', pathname: '/pricing' },
    })
  })

  it('retries 500, 500, then 200: three attempts, backoff respected, all in the delivery log', async () => {
    const { site, id } = await siteWithWebhook(['session.created'])
    const before = receiver.received.length
    receiver.respond((_r, i) => (i - before < 2 ? 500 : 200))
    await t.track(site, { user_id: 'bob' })
    await deliverDue()
    expect(receiver.received.length - before).toBe(1)
    // Not due again until the first backoff (1 min, ±20 %) has passed.
    now += 47_000
    await deliverDue()
    expect(receiver.received.length - before).toBe(1)
    now += 30_000
    await deliverDue()
    expect(receiver.received.length - before).toBe(2)
    now += 4 * 60_000
    await deliverDue()
    expect(receiver.received.length - before).toBe(2)
    now += 3 * 60_000
    await deliverDue()
    expect(receiver.received.length - before).toBe(3)
    const log = (await api('GET', `/api/sites/${site.siteId}/webhooks/${id}/deliveries`)).json()
    expect(log.meta).toEqual({ total: 1, page: 1, pageSize: 20, totalPages: 1 })
    const [delivery] = log.data
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 200 })
    expect(delivery.attemptLog.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500, 200])
    expect(delivery.attemptLog[0]).toMatchObject({ responseBody: 'error 500', error: 'HTTP 500' })
    // All three attempts carried the same delivery id.
    const ids = new Set(receiver.received.slice(before).map((r) => r.headers['x-pathlight-delivery']))
    expect(ids.size).toBe(1)
  })

  it('cuts a hanging receiver off at the timeout and records it', async () => {
    const { site, id } = await siteWithWebhook(['session.created'])
    receiver.respond(() => 'hang')
    await t.track(site, { user_id: 'carol' })
    const started = Date.now()
    await deliverDue()
    expect(Date.now() - started).toBeLessThan(3000)
    const [delivery] = (await api('GET', `/api/sites/${site.siteId}/webhooks/${id}/deliveries`)).json().data
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null })
    expect(delivery.attemptLog[0].error).toMatch(/timed out after 500 ms/)
    receiver.respond(() => 200)
  })

  it('marks a delivery failed after the last attempt, and redelivers it by hand', async () => {
    const { site, id } = await siteWithWebhook(['session.created'])
    receiver.respond(() => 503)
    await t.track(site, { user_id: 'dave' })
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await deliverDue()
      now += (RETRY_DELAYS_MS[i] ?? 0) * 1.2 + 1000
    }
    const base = `/api/sites/${site.siteId}/webhooks/${id}`
    const [failed] = (await api('GET', `${base}/deliveries`)).json().data
    expect(failed).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS })
    receiver.respond(() => 200)
    const again = await api('POST', `${base}/deliveries/${failed.id}/redeliver`)
    expect(again.statusCode).toBe(202)
    await deliverDue()
    const deliveries = (await api('GET', `${base}/deliveries`)).json().data
    expect(deliveries.find((d: { id: string }) => d.id === again.json().data.deliveryId)).toMatchObject({
      status: 'delivered',
      payload: failed.payload,
    })
  })

  it('disables a webhook whose deliveries have all failed for three days, saying why', async () => {
    const { site, id } = await siteWithWebhook(['session.created'])
    receiver.respond(() => 500)
    for (let day = 0; day < 4; day++) {
      await t.track(site, { user_id: `erin-${day}` })
      await deliverDue()
      now += 86_400_000
    }
    await deliverDue()
    const hook = (await api('GET', `/api/sites/${site.siteId}/webhooks/${id}`)).json().data
    expect(hook.enabled).toBe(false)
    expect(hook.disabledReason).toMatch(/every delivery has failed since/)
    // Nothing more is enqueued for a disabled webhook; re-enabling clears the record.
    const enabled = await api('PATCH', `/api/sites/${site.siteId}/webhooks/${id}`, { enabled: true })
    expect(enabled.json().data).toMatchObject({ enabled: true, disabledReason: null, consecutiveFailures: 0 })
    receiver.respond(() => 200)
  })

  it('never makes ingestion wait for a receiver', async () => {
    const { site } = await siteWithWebhook(['session.created'])
    receiver.respond(() => 'hang')
    const before = receiver.received.length
    // Answered before the receiver was even called: the event is queued for delivery, not delivered.
    expect((await t.track(site, { user_id: 'frank' })).statusCode).toBe(200)
    expect(receiver.received.length).toBe(before)
    receiver.respond(() => 200)
    await deliverDue()
    expect(receiver.received.length).toBe(before + 1)
  })
})

describe('alerts', () => {
  it('fire once per crossing: staying crossed does not fire again; crossing back and again does', async () => {
    const { site, secret } = await siteWithWebhook(['alert.triggered'])
    receiver.respond(() => 200)
    const before = receiver.received.length
    const rule = await api('POST', `/api/sites/${site.siteId}/alerts`, {
      name: 'Traffic spike',
      metric: 'pageviews',
      windowMinutes: 15,
      comparison: 'above',
      threshold: 2,
    })
    expect(rule.statusCode).toBe(201)
    const ruleId = rule.json().data.id
    const pageviews = async (n: number) => {
      for (let i = 0; i < n; i++) await t.track(site, { pathname: `/p${i}`, user_id: `v${i}` })
      await t.services.buffer.flush()
    }
    const evaluate = async () => (await t.services.alerts.evaluate()).fired.filter((id) => id === ruleId)

    await pageviews(2)
    expect(await evaluate()).toEqual([]) // 2 is not above 2
    await pageviews(1)
    expect(await evaluate()).toEqual([ruleId])
    expect(await evaluate()).toEqual([]) // still crossed: no second alert
    now += 16 * 60_000 // the window moves past those pageviews
    expect(await evaluate()).toEqual([])
    expect((await api('GET', `/api/sites/${site.siteId}/alerts/${ruleId}`)).json().data).toMatchObject({
      state: 'ok',
      lastValue: 0,
    })
    await pageviews(3)
    expect(await evaluate()).toEqual([ruleId])

    await deliverDue()
    const alerts = receiver.received
      .slice(before)
      .filter((r) => r.headers['x-pathlight-event'] === 'alert.triggered')
    expect(alerts).toHaveLength(2)
    for (const request of alerts)
      expect(request.headers['x-pathlight-signature']).toBe(hmac(request.body, secret))
    expect(JSON.parse(alerts[0]?.body ?? '{}').data).toMatchObject({
      ruleId,
      ruleName: 'Traffic spike',
      metric: 'pageviews',
      windowMinutes: 15,
      comparison: 'above',
      threshold: 2,
      observed: 3,
      relative: false,
    })
  })

  it('goal_conversions rules count the sessions that completed the goal', async () => {
    const site = await t.createSite(cookie, organizationId)
    const goalId = (
      await api('POST', `/api/sites/${site.siteId}/goals`, {
        name: 'Pricing',
        goalType: 'path',
        config: { pathPattern: '/pricing' },
      })
    ).json().goalId
    const rule = (
      await api('POST', `/api/sites/${site.siteId}/alerts`, {
        name: 'Pricing visits',
        metric: 'goal_conversions',
        goalId,
        windowMinutes: 60,
        comparison: 'above',
        threshold: 1,
      })
    ).json().data
    expect(rule).toMatchObject({ metric: 'goal_conversions', goalId })
    for (const user of ['g1', 'g1', 'g2']) await t.track(site, { pathname: '/pricing', user_id: user })
    await t.track(site, { pathname: '/home', user_id: 'g3' })
    await t.services.buffer.flush()
    const fired = (await t.services.alerts.evaluate()).fired
    expect((await api('GET', `/api/sites/${site.siteId}/alerts/${rule.id}`)).json().data.lastValue).toBe(2)
    expect(fired).toContain(rule.id)
    const missing = await api('POST', `/api/sites/${site.siteId}/alerts`, {
      name: 'x',
      metric: 'goal_conversions',
      windowMinutes: 60,
      comparison: 'above',
      threshold: 1,
    })
    expect(missing.json().details?.fieldErrors.goalId, missing.body).toBeDefined()
    const foreign = await api('POST', `/api/sites/${site.siteId}/alerts`, {
      name: 'x',
      metric: 'goal_conversions',
      goalId: 999_999,
      windowMinutes: 60,
      comparison: 'above',
      threshold: 1,
    })
    expect(foreign.json().details.fieldErrors.goalId).toEqual(['no such goal on this site'])
  })

  it('relative rules compare with the previous window, in percent', async () => {
    const site = await t.createSite(cookie, organizationId)
    await api('PUT', `/api/sites/${site.siteId}/config`, { trackErrors: true })
    const rule = (
      await api('POST', `/api/sites/${site.siteId}/alerts`, {
        name: 'Errors doubled',
        metric: 'errors',
        windowMinutes: 60,
        comparison: 'above',
        threshold: 100,
        relative: true,
      })
    ).json().data
    const errors = async (n: number) => {
      for (let i = 0; i < n; i++)
        await t.track(site, { type: 'error', event_name: 'TypeError', properties: '{"message":"x"}' })
      await t.services.buffer.flush()
    }
    await errors(2)
    now += 61 * 60_000
    await errors(4) // +100 %: not above 100
    expect((await t.services.alerts.evaluate()).fired).not.toContain(rule.id)
    await errors(1) // +150 %
    expect((await t.services.alerts.evaluate()).fired).toContain(rule.id)
    expect((await api('GET', `/api/sites/${site.siteId}/alerts/${rule.id}`)).json().data.lastValue).toBe(150)
  })

  it('audits creation, update and deletion of a rule with the actor', async () => {
    const site = await t.createSite(cookie, organizationId)
    const base = `/api/sites/${site.siteId}/alerts`
    const created = await api('POST', base, {
      name: 'Error burst',
      metric: 'errors',
      windowMinutes: 30,
      comparison: 'above',
      threshold: 10,
    })
    expect(created.statusCode).toBe(201)
    const id = created.json().data.id
    const updated = await api('PATCH', `${base}/${id}`, { threshold: 25, relative: true })
    expect(updated.statusCode).toBe(200)
    expect((await api('PATCH', `${base}/${id}`, { comparison: 'sideways' })).statusCode).toBe(400)
    expect((await api('DELETE', `${base}/${id}`)).statusCode).toBe(200)
    expect((await api('DELETE', `${base}/${id}`)).statusCode).toBe(404)

    const { entries } = await auditTrail(site)
    const scope = { organizationId, siteId: site.siteId, actorUserId: userId, actorEmail: expect.any(String) }
    const rule = {
      alertRuleId: id,
      name: 'Error burst',
      metric: 'errors',
      eventName: null,
      goalId: null,
      windowMinutes: 30,
      comparison: 'above',
      threshold: 10,
      relative: false,
      enabled: true,
      emailRecipients: [],
    }
    expect(entries).toEqual([
      expect.objectContaining({ ...scope, action: 'alert_rule.created', details: rule }),
      expect.objectContaining({
        ...scope,
        action: 'alert_rule.updated',
        details: { ...rule, threshold: 25, relative: true, changed: ['threshold', 'relative'] },
      }),
      expect.objectContaining({
        ...scope,
        action: 'alert_rule.deleted',
        details: { alertRuleId: id, name: 'Error burst', metric: 'errors' },
      }),
    ])
  })

  it.each([
    [{ name: 'x', metric: 'revenue', windowMinutes: 15, comparison: 'above', threshold: 1 }, 'metric'],
    [
      { name: 'x', metric: 'pageviews', windowMinutes: 1, comparison: 'above', threshold: 1 },
      'windowMinutes',
    ],
    [
      { name: 'x', metric: 'pageviews', windowMinutes: 15, comparison: 'sideways', threshold: 1 },
      'comparison',
    ],
    [
      { name: 'x', metric: 'pageviews', windowMinutes: 15, comparison: 'above', threshold: 'many' },
      'threshold',
    ],
    [
      {
        name: 'x',
        metric: 'pageviews',
        eventName: 'a',
        windowMinutes: 15,
        comparison: 'above',
        threshold: 1,
      },
      'eventName',
    ],
  ])('rejects %j naming %s', async (body, field) => {
    const site = await t.createSite(cookie, organizationId)
    const response = await api('POST', `/api/sites/${site.siteId}/alerts`, body)
    expect(response.statusCode).toBe(400)
    expect(response.json().details.fieldErrors[field]).toBeDefined()
  })
})
