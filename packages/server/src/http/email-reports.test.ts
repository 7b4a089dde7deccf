/**
 * Scheduled e-mail reports through the real app, with a real SMTP server in this process, on SQLite +
 * chDB and on PostgreSQL + chDB + Redis: five weeks of generated events imported, a weekly report in
 * Europe/Berlin whose mailed figures equal what the v1 stats, the pages, the breakdowns and the goals
 * answer over HTTP for the week it names (and plain counts over the generated lines); the confirm link
 * of an address outside the organization; the schedule sending each week once; the one-click
 * unsubscribe stopping the next mail; validation and access; the Redis lock.
 */
import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dueReportsPass, EMAIL_REPORTS_LOCK } from '../email-reports/due-reports-pass.js'
import { type Geolocator, openGeolocator } from '../ingest/enrich/geolocation.js'
import { formatChange, formatDuration } from '../mail/templates/email-report.js'
import { EMAIL_VERIFICATION_SUBJECT } from '../mail/templates/email-verification.js'
import type { Site } from '../sites/site.js'
import { fromBool } from '../storage/metadata/schema.js'
import { type SmtpReceiver, startSmtpReceiver } from '../testing/smtp-receiver.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const BASE_URL = 'https://pathlight.example'
const DAY = 86_400_000
const USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const IPS = { US: '8.8.8.8', GB: '81.2.69.142' } as const
const PAGES = ['/', '/pricing', '/blog/a', '/signup', '/docs']
const REFERRERS = ['', 'https://www.google.com/', 'https://news.ycombinator.com/item?id=1']

/** A small deterministic PRNG (mulberry32). */
function random(seed: number) {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface Line {
  timestamp: string
  hostname: string
  pathname: string
  referrer: string
  user_agent: string
  ip_address: string
  user_id: string
}

/** Visits of 1 to 4 pageviews a minute apart, starting 06:00-18:00 UTC, 2026-02-16 .. 2026-03-22. */
function generate(visits: number): Line[] {
  const next = random(7)
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T
  const lines: Line[] = []
  for (let v = 0; v < visits; v++) {
    const visitor = Math.floor(next() * 60)
    const start =
      Date.parse('2026-02-16T06:00:00Z') + Math.floor(next() * 35) * DAY + Math.floor(next() * 12 * 3600_000)
    const referrer = pick(REFERRERS)
    const pages = 1 + Math.floor(next() * 4)
    for (let i = 0; i < pages; i++) {
      lines.push({
        timestamp: new Date(start + i * 60_000).toISOString(),
        hostname: 'example.com',
        pathname: pick(PAGES),
        referrer: i === 0 ? referrer : '',
        user_agent: USER_AGENT,
        ip_address: visitor % 3 === 0 ? IPS.GB : IPS.US,
        user_id: `visitor-${visitor}`,
      })
    }
  }
  return lines
}

let geolocator: Geolocator
beforeAll(async () => {
  geolocator = await openGeolocator()
}, 60_000)
afterAll(() => geolocator.close())

describe.each([
  ['SQLite + chDB', false],
  ['PostgreSQL + chDB + Redis', true],
])('e-mail reports on %s', (_name, served) => {
  let t: TestInstance
  let receiver: SmtpReceiver
  // Wednesday: the last full week is Monday 2026-03-02 .. Sunday 2026-03-08.
  let now = Date.parse('2026-03-11T10:00:00.000Z')
  let owner: { cookie: string; userId: string }
  let member: { cookie: string; userId: string }
  let site: Site
  let apiKey: string
  let reportId: string
  const lines = generate(400)

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    cookie?: string,
    payload?: unknown,
  ) =>
    t.app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
  const reportsUrl = () => `/api/sites/${site.siteId}/email-reports`
  /** Send what the outbox holds; @returns the mails that arrived meanwhile. */
  const deliver = async () => {
    const before = receiver.received.length
    const ignoredBefore = receiver.ignored
    const runner = t.services.mailRunner
    if (!runner) throw new Error('mail is not configured')
    let total = 0
    for (let n = await runner.runOnce(); n > 0; n = await runner.runOnce()) total += n
    // Address verification mails are not kept (`ignoreSubjects`).
    return (await receiver.waitFor(before + total - (receiver.ignored - ignoredBefore))).slice(before)
  }
  const v1 = async (path: string, query: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/sites/${site.siteId}/${path}?${query}`,
      headers: { authorization: `Bearer ${apiKey}` },
    })
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }
  const dashboard = async (path: string, query: string) => {
    const response = await call('GET', `/api/sites/${site.siteId}/${path}?${query}`, owner.cookie)
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }
  /** A line's end: a blank and `value`, taken literally. */
  const ending = (value: string) => new RegExp(`\\s${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)
  /** The text part's line `Name   value (change)` or `  name   value`. */
  const lineOf = (text: string, name: string) =>
    text
      .split('\n')
      .find(
        (line) =>
          line.trimStart().startsWith(`${name} `) && line.trimStart().slice(name.length).startsWith('  '),
      )

  beforeAll(async () => {
    receiver = await startSmtpReceiver({ ignoreSubjects: [EMAIL_VERIFICATION_SUBJECT] })
    t = await openTestInstance({
      postgres: served,
      redis: served,
      geolocator,
      clock: () => now,
      workers: false,
      env: { SMTP_URL: receiver.url, MAIL_FROM: 'Pathlight <reports@pathlight.example>', BASE_URL },
    })
    owner = await t.signUp(`owner-${crypto.randomUUID()}@example.com`)
    const organizationId = await t.createOrganization(owner.cookie)
    site = await t.createSite(owner.cookie, organizationId)
    apiKey = await t.createApiKey(owner.cookie)
    member = await t.signUp(`member-${crypto.randomUUID()}@example.com`)
    // Members count as confirmed recipients once their addresses are verified.
    await t.services.metadata.db
      .updateTable('user')
      .set({ emailVerified: fromBool(true) })
      .where('id', 'in', [owner.userId, member.userId])
      .execute()
    await t.services.metadata.db
      .insertInto('member')
      .values({
        id: crypto.randomUUID(),
        organization_id: organizationId,
        user_id: member.userId,
        role: 'member',
        created_at: new Date().toISOString(),
      })
      .execute()
    const imported = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/import`,
      headers: { cookie: owner.cookie, 'content-type': 'application/x-ndjson' },
      payload: lines.map((line) => JSON.stringify(line)).join('\n'),
    })
    expect(imported.statusCode, imported.body).toBe(200)
    const goal = await call('POST', `/api/sites/${site.siteId}/goals`, owner.cookie, {
      name: 'Signed up',
      goalType: 'path',
      config: { pathPattern: '/signup' },
    })
    expect(goal.statusCode, goal.body).toBe(201)
  }, 120_000)
  afterAll(async () => {
    await t?.close()
    await receiver?.close()
  })

  const ownerEmail = async () =>
    (
      await t.services.metadata.db
        .selectFrom('user')
        .select('email')
        .where('id', '=', owner.userId)
        .executeTakeFirstOrThrow()
    ).email

  it('refuses invalid reports with a 400 naming the field, and writes by plain members with a 403', async () => {
    const cases: [unknown, string][] = [
      [{ recipients: ['not an address'], frequency: 'weekly' }, 'recipients'],
      [{ recipients: [], frequency: 'weekly' }, 'recipients'],
      [{ recipients: ['a@example.com', 'A@example.com'], frequency: 'weekly' }, 'recipients'],
      [
        { recipients: Array.from({ length: 21 }, (_, i) => `p${i}@example.com`), frequency: 'weekly' },
        'recipients',
      ],
      [{ recipients: ['a@example.com'], frequency: 'daily' }, 'frequency'],
      [{ recipients: ['a@example.com'], frequency: 'weekly', timeZone: 'Mars/Olympus' }, 'timeZone'],
      [{ recipients: ['a@example.com'], frequency: 'weekly', extra: 1 }, 'extra'],
    ]
    for (const [body, field] of cases) {
      const response = await call('POST', reportsUrl(), owner.cookie, body)
      expect(response.statusCode, response.body).toBe(400)
      expect(response.json().error).toContain(field)
    }
    const asMember = await call('POST', reportsUrl(), member.cookie, {
      recipients: ['a@example.com'],
      frequency: 'weekly',
    })
    expect(asMember.statusCode).toBe(403)
    expect((await call('GET', reportsUrl())).statusCode).toBe(401)
    expect((await call('GET', '/api/sites/999999/email-reports', owner.cookie)).statusCode).toBe(404)
  })

  it('schedules a report: members active at once, other addresses confirm from a mailed link', async () => {
    const created = await call('POST', reportsUrl(), owner.cookie, {
      recipients: [(await ownerEmail()).toUpperCase(), 'Outsider@Example.org'],
      frequency: 'weekly',
      timeZone: 'europe/berlin',
    })
    expect(created.statusCode, created.body).toBe(201)
    const report = created.json().data
    reportId = report.id
    expect(report).toMatchObject({ frequency: 'weekly', timeZone: 'Europe/Berlin', lastPeriod: null })
    expect(report.recipients).toEqual(
      expect.arrayContaining([
        { email: await ownerEmail(), status: 'active' },
        { email: 'outsider@example.org', status: 'pending' },
      ]),
    )

    const [confirmation, ...others] = await deliver()
    expect(others).toEqual([])
    expect(confirmation?.to).toEqual(['outsider@example.org'])
    expect(confirmation?.subject).toBe('Confirm the weekly Pathlight report of example.com')
    const link = /https:\/\/pathlight\.example\/email-reports\/confirm\/([\w-]+)/.exec(
      confirmation?.text ?? '',
    )
    expect(link, confirmation?.text).not.toBeNull()
    expect(confirmation?.html).toContain(link?.[0])
    const token = link?.[1] ?? ''

    const before = await call('GET', `/api/email-reports/subscriptions/${token}`)
    expect(before.json()).toEqual({
      email: 'outsider@example.org',
      siteDomain: 'example.com',
      frequency: 'weekly',
      status: 'pending',
    })
    const confirmed = await call('POST', `/api/email-reports/subscriptions/${token}/confirm`)
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    expect(confirmed.json().status).toBe('active')
    expect((await call('POST', '/api/email-reports/subscriptions/nope/confirm')).statusCode).toBe(404)

    // Members read the list.
    const listed = await call('GET', reportsUrl(), member.cookie)
    expect(listed.statusCode).toBe(200)
    expect(listed.json().meta).toEqual({ total: 1, mailConfigured: true })
    expect(listed.json().data[0].recipients.map((r: { status: string }) => r.status)).toEqual([
      'active',
      'active',
    ])
  })

  it('sends the last full week now, with the figures v1 answers for that week', async () => {
    const sent = await call('POST', `${reportsUrl()}/${reportId}/send`, owner.cookie)
    expect(sent.statusCode, sent.body).toBe(200)
    expect(sent.json()).toEqual({
      period: { startDate: '2026-03-02', endDate: '2026-03-08' },
      sent: [await ownerEmail(), 'outsider@example.org'].sort(),
    })
    const mails = await deliver()
    expect(mails.map((m) => m.to[0]).sort()).toEqual([await ownerEmail(), 'outsider@example.org'].sort())
    const mail = mails[0]
    if (!mail) throw new Error('no mail')
    expect(mail.subject).toBe('example.com: weekly report, Mar 2, 2026 \u2013 Mar 8, 2026')
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
    expect(mail.headers.get('list-unsubscribe')).toMatch(
      /^<https:\/\/pathlight\.example\/api\/email-reports\/subscriptions\/[\w-]+\/unsubscribe>$/,
    )
    expect(mail.html).toContain('https://pathlight.example/email-reports/unsubscribe/')
    expect(mail.text).toContain('Unsubscribe: https://pathlight.example/email-reports/unsubscribe/')
    expect(mail.html).toContain(
      `https://pathlight.example/sites/${site.siteId}?period=custom&amp;from=2026-03-02&amp;to=2026-03-08&amp;tz=Europe%2FBerlin`,
    )

    // The same week through the API.
    const query = 'start_date=2026-03-02&end_date=2026-03-08&time_zone=Europe/Berlin'
    const stats = (await v1('stats', query)).data
    const pages = (await v1('pages', `${query}&limit=5`)).data
    const sources = (await dashboard('breakdown/referrers', `${query}&limit=5`)).data
    const countries = (await dashboard('breakdown/countries', `${query}&limit=5`)).data
    const goals = (await dashboard('goals', query)).data
    const integer = (n: number) => n.toLocaleString('en-US')
    const percent = (n: number) => `${Math.round(n * 100)}%`
    expect(lineOf(mail.text, 'Visitors')).toMatch(
      ending(`${integer(stats.current.visitors)} (${formatChange(stats.change.visitors)})`),
    )
    expect(lineOf(mail.text, 'Pageviews')).toMatch(
      ending(`${integer(stats.current.pageviews)} (${formatChange(stats.change.pageviews)})`),
    )
    expect(lineOf(mail.text, 'Bounce rate')).toMatch(
      ending(`${percent(stats.current.bounce_rate)} (${formatChange(stats.change.bounce_rate)})`),
    )
    expect(lineOf(mail.text, 'Visit duration')).toMatch(
      ending(
        `${formatDuration(stats.current.session_duration)} (${formatChange(stats.change.session_duration)})`,
      ),
    )
    for (const page of pages)
      expect(lineOf(mail.text, page.pathname)).toMatch(ending(`${integer(page.pageviews)}`))
    for (const source of sources)
      expect(lineOf(mail.text, source.value)).toMatch(ending(`${source.visitors}`))
    expect(lineOf(mail.text, 'United States')).toMatch(
      ending(`${countries.find((c: { value: string }) => c.value === 'US').visitors}`),
    )
    expect(lineOf(mail.text, 'United Kingdom')).toMatch(
      ending(`${countries.find((c: { value: string }) => c.value === 'GB').visitors}`),
    )
    expect(lineOf(mail.text, 'Signed up')).toMatch(
      ending(`${goals[0].total_conversions} (${percent(goals[0].conversion_rate)})`),
    )

    // And by plain counting over the generated lines (Berlin is UTC+1 in March before the 29th).
    const from = Date.parse('2026-03-01T23:00:00Z')
    const to = Date.parse('2026-03-08T23:00:00Z')
    const inWeek = lines.filter((l) => Date.parse(l.timestamp) >= from && Date.parse(l.timestamp) < to)
    expect(stats.current.pageviews).toBe(inWeek.length)
    expect(stats.current.visitors).toBe(new Set(inWeek.map((l) => l.user_id)).size)
    const pageviewsOf = (path: string) => inWeek.filter((l) => l.pathname === path).length
    for (const page of pages) expect(page.pageviews).toBe(pageviewsOf(page.pathname))
    const us = new Set(inWeek.filter((l) => l.ip_address === IPS.US).map((l) => l.user_id)).size
    expect(countries.find((c: { value: string }) => c.value === 'US').visitors).toBe(us)

    // Both parts hold the figures; the HTML escapes nothing it should not need to.
    expect(mail.html).toContain(`>${integer(stats.current.pageviews)}<`)
    const listed = (await call('GET', reportsUrl(), owner.cookie)).json()
    expect(listed.data[0].lastPeriod).toEqual({ startDate: '2026-03-02', endDate: '2026-03-08' })
  })

  it('keeps the time zone as named: Asia/Kolkata in the stored report and the mail link', async () => {
    const created = await call('POST', reportsUrl(), owner.cookie, {
      recipients: [await ownerEmail()],
      frequency: 'weekly',
      timeZone: 'Asia/Kolkata',
    })
    expect(created.statusCode, created.body).toBe(201)
    const report = created.json().data
    expect(report.timeZone).toBe('Asia/Kolkata')
    const listed = await call('GET', reportsUrl(), owner.cookie)
    expect(listed.json().data.find((r: { id: string }) => r.id === report.id)?.timeZone).toBe('Asia/Kolkata')
    const sent = await call('POST', `${reportsUrl()}/${report.id}/send`, owner.cookie)
    expect(sent.statusCode, sent.body).toBe(200)
    const mails = await deliver()
    expect(mails).toHaveLength(1)
    expect(mails[0]?.html).toContain('&amp;tz=Asia%2FKolkata')
    expect((await call('DELETE', `${reportsUrl()}/${report.id}`, owner.cookie)).statusCode).toBe(200)
  })

  it('sends each week once on schedule, and an unsubscribed address no more', async () => {
    // The week sent by hand is not sent again.
    expect(await t.services.emailReportSender.sendDue()).toEqual({ reports: 0, mails: 0 })
    // Monday 2026-03-16 09:00 in Berlin: the week 03-09 .. 03-15 is due.
    now = Date.parse('2026-03-16T08:00:00.000Z')
    expect(await t.services.emailReportSender.sendDue()).toEqual({ reports: 1, mails: 2 })
    expect(await t.services.emailReportSender.sendDue()).toEqual({ reports: 0, mails: 0 })
    const week = await deliver()
    expect(week).toHaveLength(2)
    const outsiderMail = week.find((m) => m.to[0] === 'outsider@example.org')
    expect(outsiderMail?.subject).toBe('example.com: weekly report, Mar 9, 2026 \u2013 Mar 15, 2026')

    // The mail client's one-click unsubscribe (RFC 8058): a form POST to the List-Unsubscribe URL.
    const target = new URL((outsiderMail?.headers.get('list-unsubscribe') ?? '').slice(1, -1))
    const unsubscribed = await t.app.inject({
      method: 'POST',
      url: target.pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    })
    expect(unsubscribed.statusCode, unsubscribed.body).toBe(200)
    expect(unsubscribed.json().status).toBe('unsubscribed')
    // Confirming again does not undo it.
    const again = await call('POST', target.pathname.replace(/unsubscribe$/, 'confirm'))
    expect(again.json().status).toBe('unsubscribed')

    now = Date.parse('2026-03-23T08:00:00.000Z')
    expect(await t.services.emailReportSender.sendDue()).toEqual({ reports: 1, mails: 1 })
    const next = await deliver()
    expect(next.map((m) => m.to[0])).toEqual([await ownerEmail()])
    now = Date.parse('2026-03-11T10:00:00.000Z')
  })

  it('changes and deletes a report', async () => {
    const changed = await call('PATCH', `${reportsUrl()}/${reportId}`, owner.cookie, {
      frequency: 'monthly',
      recipients: [await ownerEmail(), 'outsider@example.org', 'new@example.net'],
    })
    expect(changed.statusCode, changed.body).toBe(200)
    expect(changed.json().data.frequency).toBe('monthly')
    expect(changed.json().data.recipients).toEqual(
      expect.arrayContaining([
        { email: 'outsider@example.org', status: 'unsubscribed' },
        { email: 'new@example.net', status: 'pending' },
      ]),
    )
    const [confirmation] = await deliver()
    expect(confirmation?.to).toEqual(['new@example.net'])

    // A month is compared with the calendar month before, as v1 answers with compare=custom.
    const monthly = await call('POST', `${reportsUrl()}/${reportId}/send`, owner.cookie)
    expect(monthly.json()).toEqual({
      period: { startDate: '2026-02-01', endDate: '2026-02-28' },
      sent: [await ownerEmail()],
    })
    const [february] = await deliver()
    expect(february?.subject).toBe('example.com: monthly report, Feb 1, 2026 \u2013 Feb 28, 2026')
    expect(february?.text).toContain(
      'Feb 1, 2026 \u2013 Feb 28, 2026, compared with Jan 1, 2026 \u2013 Jan 31, 2026',
    )
    const month = (
      await v1(
        'stats',
        'start_date=2026-02-01&end_date=2026-02-28&time_zone=Europe/Berlin&compare=custom' +
          '&compare_start_date=2026-01-01&compare_end_date=2026-01-31',
      )
    ).data
    expect(lineOf(february?.text ?? '', 'Pageviews')).toMatch(
      ending(`${month.current.pageviews.toLocaleString('en-US')} (${formatChange(month.change.pageviews)})`),
    )
    const bad = await call('PATCH', `${reportsUrl()}/${reportId}`, owner.cookie, { frequency: 'hourly' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error).toContain('frequency')
    expect((await call('PATCH', `${reportsUrl()}/nope`, owner.cookie, {})).statusCode).toBe(404)

    const token = /confirm\/([\w-]+)/.exec(confirmation?.text ?? '')?.[1]
    expect((await call('DELETE', `${reportsUrl()}/${reportId}`, member.cookie)).statusCode).toBe(403)
    expect((await call('DELETE', `${reportsUrl()}/${reportId}`, owner.cookie)).statusCode).toBe(200)
    expect((await call('GET', reportsUrl(), owner.cookie)).json().data).toEqual([])
    expect((await call('GET', `/api/email-reports/subscriptions/${token}`)).statusCode).toBe(404)

    // Audited without the addresses.
    const audit = await call('GET', `/api/sites/${site.siteId}/audit-log`, owner.cookie)
    expect(audit.statusCode, audit.body).toBe(200)
    const entries = (audit.json().data as { action: string; details: Record<string, unknown> }[]).filter(
      (e) => e.action.startsWith('email_report.') && e.details.emailReportId === reportId,
    )
    expect(entries.map((e) => e.action).sort()).toEqual([
      'email_report.created',
      'email_report.deleted',
      'email_report.updated',
    ])
    expect(entries.find((e) => e.action === 'email_report.updated')?.details).toEqual({
      emailReportId: reportId,
      frequency: 'monthly',
      timeZone: 'Europe/Berlin',
      recipients: 3,
    })
    expect(audit.body).not.toContain('outsider@example.org')
  })

  it('sends the other reports when one fails, and the pass fails naming how many', async () => {
    const created = await call('POST', reportsUrl(), owner.cookie, {
      recipients: [await ownerEmail()],
      frequency: 'weekly',
      timeZone: 'UTC',
    })
    expect(created.statusCode, created.body).toBe(201)
    // A report whose zone the runtime does not know cannot find its week (only a store edit makes one).
    await t.services.metadata.db
      .insertInto('email_report')
      .values({
        id: crypto.randomUUID(),
        site_id: site.siteId,
        frequency: 'weekly',
        time_zone: 'Mars/Olympus',
        created_by: owner.userId,
        created_at: new Date(now).toISOString(),
      })
      .execute()
    now = Date.parse('2026-03-16T08:00:00.000Z')
    await expect(t.services.emailReportSender.sendDue()).rejects.toThrow(
      '1 of 2 e-mail report(s) failed (1 sent); the next pass tries them again',
    )
    const mails = await deliver()
    expect(mails.map((m) => m.subject)).toEqual([
      'example.com: weekly report, Mar 9, 2026 \u2013 Mar 15, 2026',
    ])
    await t.services.metadata.db.deleteFrom('email_report').where('time_zone', '=', 'Mars/Olympus').execute()
    expect(await t.services.emailReportSender.sendDue()).toEqual({ reports: 0, mails: 0 })
    now = Date.parse('2026-03-11T10:00:00.000Z')
  })

  it("stops a removed member's reports until they confirm, as an outsider's", async () => {
    const memberEmail = (
      await t.services.metadata.db
        .selectFrom('user')
        .select('email')
        .where('id', '=', member.userId)
        .executeTakeFirstOrThrow()
    ).email
    const created = await call('POST', reportsUrl(), owner.cookie, {
      recipients: [memberEmail, await ownerEmail()],
      frequency: 'weekly',
      timeZone: 'UTC',
    })
    expect(created.statusCode, created.body).toBe(201)
    const id = created.json().data.id
    const statusOf = async () =>
      Object.fromEntries(
        (
          (await call('GET', reportsUrl(), owner.cookie)).json().data as {
            id: string
            recipients: { email: string; status: string }[]
          }[]
        )
          .find((report) => report.id === id)
          ?.recipients.map((r) => [r.email, r.status]) ?? [],
      )
    expect(await statusOf()).toEqual({ [memberEmail]: 'active', [await ownerEmail()]: 'active' })

    const removed = await call(
      'DELETE',
      `/api/organizations/${site.organizationId}/members/${member.userId}`,
      owner.cookie,
    )
    expect(removed.statusCode, removed.body).toBe(200)
    expect(await statusOf()).toEqual({ [memberEmail]: 'pending', [await ownerEmail()]: 'active' })
    const [confirmation, ...others] = await deliver()
    expect(others).toEqual([])
    expect(confirmation?.to).toEqual([memberEmail])
    expect(confirmation?.subject).toBe('Confirm the weekly Pathlight report of example.com')

    // Sent now, the report goes to the owner only; confirmed, to the former member again.
    const sent = await call('POST', `${reportsUrl()}/${id}/send`, owner.cookie)
    expect(sent.json().sent).toEqual([await ownerEmail()])
    await deliver()
    const token = /confirm\/([\w-]+)/.exec(confirmation?.text ?? '')?.[1]
    const confirmed = await call('POST', `/api/email-reports/subscriptions/${token}/confirm`)
    expect(confirmed.json().status).toBe('active')
    expect((await call('POST', `${reportsUrl()}/${id}/send`, owner.cookie)).json().sent).toEqual(
      expect.arrayContaining([memberEmail, await ownerEmail()]),
    )
    await deliver()
    expect((await call('DELETE', `${reportsUrl()}/${id}`, owner.cookie)).statusCode).toBe(200)
  })

  // Only the served variant has Redis: without it one process runs the schedule, so there is no lock to test.
  it.runIf(served)('runs one schedule pass at a time across processes (Redis lock)', async () => {
    const redis = t.services.redis
    if (!redis) throw new Error('no Redis')
    await redis.set(EMAIL_REPORTS_LOCK, 'another process', 'PX', 60_000)
    expect(await dueReportsPass(t.services.emailReportSender, redis)()).toBeNull()
    await redis.del(EMAIL_REPORTS_LOCK)
    expect(await dueReportsPass(t.services.emailReportSender, redis)()).toEqual({ reports: 0, mails: 0 })
    expect(await redis.exists(EMAIL_REPORTS_LOCK)).toBe(0)
  })
})
