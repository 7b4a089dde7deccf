/**
 * Crawler alert rules through the real app (SQLite + chDB, a real SMTP server in this process), fed
 * with real access log lines over `POST /api/sites/{siteId}/logs`:
 * - `crawler_new_agents` fires once for an agent the site never had, not again for the same agent,
 *   and, limited to `ai`, not for a search engine; its mail names the agent;
 * - `crawler_requests` (relative, above 100: doubled) fires when the agent's requests of the last
 *   hour reach twice those of the hour before, and not one request below (the windows counted by a
 *   plain substring search over the lines sent);
 * - invalid crawler fields are a 400 naming the field.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EMAIL_VERIFICATION_SUBJECT } from '../mail/templates/email-verification.js'
import type { Site } from '../sites/site.js'
import { fromBool } from '../storage/metadata/schema.js'
import { type SmtpReceiver, startSmtpReceiver } from '../testing/smtp-receiver.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const here = path.dirname(fileURLToPath(import.meta.url))
/** The real log of secrepo.com for 2022-12-22 (test-data/access-logs/README.md), line by line. */
const LOG = readFileSync(
  path.resolve(here, '../../test-data/access-logs/secrepo-access-2022-12-22.txt'),
  'utf8',
)
  .split('\n')
  .filter((line) => line.trim() !== '')
/** The crawler fixture's GPTBot line (no AI agent visits the real logs). */
const GPTBOT = readFileSync(path.join(here, '../crawlers/access-log.fixture.txt'), 'utf8')
  .split('\n')
  .filter((line) => line.includes('GPTBot'))

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
/** A line with its `[time]` replaced by `ms` (UTC), the rest as logged. */
function at(line: string, ms: number): string {
  const d = new Date(ms)
  const pad = (n: number) => String(n).padStart(2, '0')
  const time = `${pad(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`
  return line.replace(/\[[^\]]*\]/, `[${time}]`)
}

describe('crawler alert rules', () => {
  let t: TestInstance
  let receiver: SmtpReceiver
  let cookie: string
  let site: Site
  const now = Date.parse('2026-04-02T12:00:00.000Z')

  beforeAll(async () => {
    receiver = await startSmtpReceiver({ ignoreSubjects: [EMAIL_VERIFICATION_SUBJECT] })
    t = await openTestInstance({
      clock: () => now,
      workers: false,
      env: { SMTP_URL: receiver.url, BASE_URL: 'https://pathlight.example' },
    })
    const seeded = await t.seed()
    cookie = seeded.cookie
    site = seeded.site
    await t.services.metadata.db
      .updateTable('user')
      .set({ emailVerified: fromBool(true) })
      .execute()
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    await receiver?.close()
  })

  const ingest = async (lines: readonly string[]) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/logs`,
      headers: { cookie, 'content-type': 'text/plain' },
      payload: `${lines.join('\n')}\n`,
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json().rejectedCount).toBe(0)
  }
  const create = (payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/sites/${site.siteId}/alerts`, headers: { cookie }, payload })
  const evaluate = async () => (await t.services.alerts.evaluate()).fired
  const deliver = async () => {
    const runner = t.services.mailRunner
    if (!runner) throw new Error('mail is not configured')
    const before = receiver.received.length
    let total = 0
    for (let n = await runner.runOnce(); n > 0; n = await runner.runOnce()) total += n
    return (await receiver.waitFor(before + total)).slice(before)
  }
  const owner = async () =>
    (await t.services.metadata.db.selectFrom('user').select('email').executeTakeFirstOrThrow()).email

  it('refuses crawler fields that do not fit the metric with a 400 naming the field', async () => {
    const base = { name: 'x', windowMinutes: 60, comparison: 'above', threshold: 1 }
    for (const [body, field] of [
      [{ metric: 'pageviews', crawlerCategory: 'ai' }, 'crawlerCategory'],
      [{ metric: 'crawler_requests', crawlerCategory: 'robots' }, 'crawlerCategory'],
      [{ metric: 'crawler_new_agents', crawlerAgent: 'GPTBot' }, 'crawlerAgent'],
      [{ metric: 'crawler_requests', crawlerAgent: 'GPTBot', crawlerCategory: 'ai' }, 'crawlerAgent'],
      [{ metric: 'crawler_requests', crawlerAgent: '' }, 'crawlerAgent'],
      [{ metric: 'crawler_new_agents', relative: true }, 'relative'],
    ] as const) {
      const response = await create({ ...base, ...body })
      expect(response.statusCode, response.body).toBe(400)
      expect(Object.keys(response.json().details.fieldErrors)).toEqual([field])
    }
  })

  it('crawler_new_agents fires once for an agent the site never had, and with ai only for AI agents', async () => {
    // Yesterday's requests: every bot line of the log but bingbot's (a plain substring split).
    const withoutBing = LOG.filter((line) => !line.includes('bingbot')).map((line) =>
      at(line, now - 86_400_000),
    )
    const bing = LOG.filter((line) => line.includes('bingbot'))
    expect(bing.length).toBeGreaterThan(2)
    await ingest(withoutBing)
    const email = await owner()
    const any = (
      await create({
        name: 'New crawler',
        metric: 'crawler_new_agents',
        windowMinutes: 60,
        comparison: 'above',
        threshold: 1,
        emailRecipients: [email],
      })
    ).json().data
    const ai = (
      await create({
        name: 'New AI crawler',
        metric: 'crawler_new_agents',
        crawlerCategory: 'ai',
        windowMinutes: 60,
        comparison: 'above',
        threshold: 1,
      })
    ).json().data
    expect(ai).toMatchObject({ crawlerCategory: 'ai', crawlerAgent: null })

    expect(await evaluate()).toEqual([]) // the agents already there are known, not new
    await ingest([at(bing[0] as string, now - 60_000)])
    expect(await evaluate()).toEqual([any.id]) // bingbot is new; a search engine is not an AI agent
    expect(await evaluate()).toEqual([])
    await ingest(bing.slice(1).map((line) => at(line, now - 30_000)))
    expect(await evaluate()).toEqual([]) // the same agent again
    await ingest(GPTBOT.map((line) => at(line, now - 10_000)))
    expect((await evaluate()).sort()).toEqual([any.id, ai.id].sort())
    expect(await evaluate()).toEqual([])

    const mails = await deliver()
    expect(mails.map((mail) => mail.to)).toEqual([[email], [email]])
    expect(mails[0]?.text).toContain('bingbot, never seen on the site before')
    expect(mails[1]?.text).toContain('GPTBot, never seen on the site before')
  })

  it('crawler_requests above 100 % fires on a doubling of the last hour against the hour before, not below', async () => {
    const hour = 3_600_000
    const ahrefs = LOG.filter((line) => line.includes('AhrefsBot'))
    const previousHour = ahrefs.slice(0, 5).map((line, i) => at(line, now - 2 * hour + 60_000 * (i + 1)))
    const lastHour = [...ahrefs, ...ahrefs]
      .slice(0, 10)
      .map((line, i) => at(line, now - hour + 60_000 * (i + 1)))
    const rule = (
      await create({
        name: 'Ahrefs doubled',
        metric: 'crawler_requests',
        crawlerAgent: 'AhrefsBot',
        windowMinutes: 60,
        comparison: 'above',
        threshold: 100,
        relative: true,
      })
    ).json().data
    // The windows as a plain count: lines naming AhrefsBot with their minute in each hour.
    const inWindow = (lines: string[], from: number) =>
      lines.filter((line) => line.includes('AhrefsBot') && Date.parse(logTime(line)) > from).length
    await ingest(previousHour)
    await ingest(lastHour.slice(0, 9))
    expect(inWindow(previousHour, now - 2 * hour)).toBe(5)
    expect(inWindow(lastHour.slice(0, 9), now - hour)).toBe(9)
    expect((await evaluate()).filter((id) => id === rule.id)).toEqual([]) // 9 against 5: +80 %
    const below = (
      await t.app.inject({ url: `/api/sites/${site.siteId}/alerts/${rule.id}`, headers: { cookie } })
    ).json()
    expect(below.data.lastValue).toBe(((9 - 5) / 5) * 100)
    await ingest(lastHour.slice(9))
    expect((await evaluate()).filter((id) => id === rule.id)).toEqual([rule.id]) // 10 against 5: doubled
    const fired = (
      await t.app.inject({ url: `/api/sites/${site.siteId}/alerts/${rule.id}`, headers: { cookie } })
    ).json()
    expect(fired.data).toMatchObject({ state: 'triggered', lastValue: 100 })
  })
})

/** A combined log line's `[dd/Mon/yyyy:hh:mm:ss +0000]` as ISO 8601 (the lines here are all UTC). */
function logTime(line: string): string {
  const [, day, month, year, time] = /\[(\d{2})\/(\w{3})\/(\d{4}):([\d:]{8}) \+0000\]/.exec(line) ?? []
  return `${year}-${String(MONTHS.indexOf(month ?? '') + 1).padStart(2, '0')}-${day}T${time}Z`
}
