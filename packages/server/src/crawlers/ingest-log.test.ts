/**
 * Access logs into the crawler table on the real events store: every line accounted for, the
 * per-agent counts of the workplace's real logs equal to a count by plain substring search over the
 * files, the three JSON/text formats read, bad lines rejected with their number and field, retention
 * and site deletion reaching the table.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deleteExpiredEvents } from '../query/expired-events.js'
import { deleteSiteEvents } from '../query/site-events.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { copyEventsTemplate } from '../testing/events-template.js'
import { openTestEventsStore } from '../testing/test-events-store.js'
import { ingestLog } from './ingest-log.js'

const here = path.dirname(fileURLToPath(import.meta.url))
// The five real access logs, copied into the repository: four in test-data/access-logs, the fifth is
// the demo's log (see each folder's README for source and licence).
const realLogs: Record<string, string> = {
  'basjes-hackers-access.txt': path.resolve(here, '../../test-data/access-logs/basjes-hackers-access.txt'),
  'elastic-examples-apache_logs.txt': path.resolve(here, '../../demo-data/elastic-examples-apache_logs.txt'),
  'secrepo-access-2018-12-15.txt': path.resolve(
    here,
    '../../test-data/access-logs/secrepo-access-2018-12-15.txt',
  ),
  'secrepo-access-2021-10-22_to_27.txt': path.resolve(
    here,
    '../../test-data/access-logs/secrepo-access-2021-10-22_to_27.txt',
  ),
  'secrepo-access-2022-12-22.txt': path.resolve(
    here,
    '../../test-data/access-logs/secrepo-access-2022-12-22.txt',
  ),
}
const FIXTURE = readFileSync(path.join(here, 'access-log.fixture.txt'), 'utf8')

/** The agents the done-when check names, with the token each one's user agent carries. */
const AGENTS = [
  ['Googlebot', 'googlebot'],
  ['bingbot', 'bingbot'],
  ['AhrefsBot', 'ahrefsbot'],
  ['YandexBot', 'yandexbot'],
  ['SemrushBot', 'semrushbot'],
  ['Applebot', 'applebot'],
  ['Baiduspider', 'baiduspider'],
  ['MJ12bot', 'mj12bot'],
  ['SeznamBot', 'seznambot'],
  ['DotBot', 'dotbot'],
  ['PetalBot', 'petalbot'],
] as const

describe('ingest of access logs', () => {
  let dir: string
  let events: EventsStore
  let nextSite = 900

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'pathlight-crawlers-'))
    copyEventsTemplate(path.join(dir, 'events'))
    events = await openTestEventsStore(path.join(dir, 'events'))
  }, 60_000)
  afterAll(async () => {
    await events?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const stored = async (siteId: number) =>
    events.query<{ agent: string; n: number; verified: number }>(
      'SELECT agent, count() AS n, countIf(verified) AS verified FROM crawler_requests WHERE site_id = {site:UInt32} GROUP BY agent ORDER BY agent',
      { site: siteId },
    )

  it('reads the fixture: text, nginx JSON and Caddy JSON lines, bad lines by number and field', async () => {
    const site = nextSite++
    const lines = FIXTURE.split('\n')
    const summary = await ingestLog(events, site, lines)
    expect(summary.lines).toBe(lines.length)
    expect(summary.kept + summary.skippedHuman + summary.blank + summary.rejectedCount).toBe(lines.length)
    expect(summary.rejected).toEqual([
      { line: 8, reason: expect.stringMatching(/^time: /) },
      { line: 9, reason: expect.stringMatching(/^status: /) },
      { line: 10, reason: expect.stringMatching(/^json: /) },
      { line: 11, reason: expect.stringMatching(/^status: .*nginx JSON/) },
      { line: 12, reason: expect.stringMatching(/^request\.uri: .*Caddy/) },
    ])
    expect(summary.agents).toEqual({
      GPTBot: 2,
      ClaudeBot: 1,
      'ChatGPT-User': 1,
      PerplexityBot: 1,
      Googlebot: 2,
      'OAI-SearchBot': 1,
    })
    expect(summary.skippedHuman).toBe(3)
    expect(summary.humanPageRequests).toBe(2)
    const rows = await events.query<Record<string, unknown>>(
      'SELECT agent, operator, category, verified, method, host, pathname, status, bytes FROM crawler_requests WHERE site_id = {site:UInt32} ORDER BY timestamp, agent',
      { site },
    )
    expect(rows).toContainEqual({
      agent: 'GPTBot',
      operator: 'OpenAI',
      category: 'ai_training',
      verified: true,
      method: 'GET',
      host: 'example.com',
      pathname: '/docs',
      status: 200,
      bytes: 5120,
    })
    expect(rows).toContainEqual(
      expect.objectContaining({
        agent: 'ChatGPT-User',
        category: 'ai_assistant',
        host: 'shop.example.com',
        pathname: '/p/1',
      }),
    )
    // Googlebot from Google's range is verified, the one from elsewhere only claimed.
    expect(await stored(site)).toContainEqual({ agent: 'Googlebot', n: 2, verified: 1 })
  })

  it('leaves the crawler rows to retention and to the site deletion', async () => {
    const site = nextSite++
    await ingestLog(events, site, FIXTURE.split('\n'))
    const before = (await stored(site)).reduce((sum, row) => sum + Number(row.n), 0)
    expect(before).toBe(8)
    await deleteExpiredEvents(events, site, Date.parse('2025-03-01T10:00:02Z'))
    const after = (await stored(site)).reduce((sum, row) => sum + Number(row.n), 0)
    expect(after).toBeLessThan(before)
    expect(after).toBeGreaterThan(0)
    await deleteSiteEvents(events, site)
    await events.command('OPTIMIZE TABLE crawler_requests FINAL')
    await expect.poll(async () => (await stored(site)).length, { timeout: 20_000 }).toBe(0)
  })

  describe("the real access logs (test-data/access-logs and the demo's log)", () => {
    const files = Object.keys(realLogs)
    it.each(files)(
      '%s: every line accounted for, the agents counted as a plain search counts them',
      async (file) => {
        const text = readFileSync(realLogs[file] as string, 'utf8')
        const lines = text.split('\n')
        const site = nextSite++
        const summary = await ingestLog(events, site, lines)
        expect(summary.kept + summary.skippedHuman + summary.blank + summary.rejectedCount).toBe(lines.length)
        expect(summary.rejected.every((entry) => entry.line >= 1 && entry.line <= lines.length)).toBe(true)
        for (const entry of summary.rejected) expect(entry.reason).toMatch(/^[a-z_.]+: /)
        // Independent count: lines whose last quoted field (the user agent; its closing quote may be
        // missing when the log cut the line) holds the agent's token.
        for (const [name, token] of AGENTS) {
          const count = lines.filter((line) => {
            const ua = /"([^"]*)"?\s*$/.exec(line)?.[1] ?? ''
            return ua.toLowerCase().includes(token) && /"\s\d{3}\s(?:\d+|-)\s/.test(line)
          }).length
          expect([name, summary.agents[name] ?? 0]).toEqual([name, count])
        }
        const rows = await stored(site)
        expect(rows.reduce((sum, row) => sum + Number(row.n), 0)).toBe(summary.kept)
      },
    )
  })
})
