/**
 * The AI Assistants channel through the real app (SQLite + chDB): visits from ChatGPT, Perplexity,
 * Claude, Gemini and Copilot, by referrer or by `utm_source` alone, land in 'AI Assistants' (not
 * Referral, not a campaign) with the assistant as the source, in live tracking (`POST /api/track`),
 * in the NDJSON import and in the Umami import; the channels and referrers reports (rolled up) count them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const NOW = Date.parse('2024-04-15T12:00:00.000Z')
const CHROME_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'

/** [referrer, querystring, expected channel, expected source domain] */
const VISITS: ReadonlyArray<readonly [string, string, string, string]> = [
  ['https://chatgpt.com/', 'utm_source=chatgpt.com', 'AI Assistants', 'chatgpt.com'],
  ['', 'utm_source=chatgpt.com', 'AI Assistants', 'chatgpt.com'],
  ['', 'utm_source=chatgpt.com&utm_medium=referral&utm_campaign=x', 'AI Assistants', 'chatgpt.com'],
  ['https://chat.openai.com/c/123', '', 'AI Assistants', 'chat.openai.com'],
  ['https://www.perplexity.ai/search?q=pathlight', '', 'AI Assistants', 'perplexity.ai'],
  ['https://claude.ai/', '', 'AI Assistants', 'claude.ai'],
  ['https://gemini.google.com/', '', 'AI Assistants', 'gemini.google.com'],
  ['https://copilot.microsoft.com/', '', 'AI Assistants', 'copilot.microsoft.com'],
  ['', 'utm_source=perplexity', 'AI Assistants', 'perplexity.ai'],
  ['https://news.example.org/story', '', 'Referral', 'news.example.org'],
  ['https://www.google.com/', '', 'Organic Search', 'google.com'],
]
const AI_VISITS = VISITS.filter(([, , channel]) => channel === 'AI Assistants').length

describe('AI Assistants channel', () => {
  let t: TestInstance
  let owner: Awaited<ReturnType<TestInstance['seed']>>

  beforeAll(async () => {
    t = await openTestInstance({ clock: () => NOW })
    owner = await t.seed()
  }, 60_000)
  afterAll(() => t?.close())

  const rowsOf = async (siteId: number) => {
    await t.services.buffer.flush()
    return t.services.events.query<{ channel: string; referrer_domain: string; pathname: string }>(
      'SELECT channel, referrer_domain, pathname FROM events WHERE site_id = {site:UInt32} ORDER BY pathname',
      { site: siteId },
    )
  }
  const read = async (siteId: number, path: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${siteId}/${path}`,
      headers: { cookie: owner.cookie },
    })
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }
  const expectVisits = (rows: Array<{ channel: string; referrer_domain: string; pathname: string }>) => {
    expect(rows.map((row) => [row.pathname, row.channel, row.referrer_domain])).toEqual(
      VISITS.map(([, , channel, domain], i) => [`/p${String(i).padStart(2, '0')}`, channel, domain]),
    )
  }

  it('puts live visits from AI assistants in the channel, the assistant as the source', async () => {
    const site = await t.createSite(owner.cookie, owner.site.organizationId, 'example.com')
    for (const [i, [referrer, querystring]] of VISITS.entries()) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/track',
        headers: {
          'content-type': 'application/json',
          'user-agent': CHROME_UA,
          origin: 'https://example.com',
        },
        payload: JSON.stringify({
          site_id: String(site.siteId),
          hostname: 'example.com',
          pathname: `/p${String(i).padStart(2, '0')}`,
          referrer,
          querystring,
        }),
        remoteAddress: `81.2.69.${10 + i}`,
      })
      expect(response.statusCode, response.body).toBe(200)
    }
    expectVisits(await rowsOf(site.siteId))
    const channels = await read(site.siteId, 'breakdown/channels?period=day')
    const ai = channels.data.find((row: { value: string }) => row.value === 'AI Assistants')
    expect(ai).toMatchObject({ visitors: AI_VISITS })
    const referrers = await read(site.siteId, 'breakdown/referrers?period=day')
    const chatgpt = referrers.data.find((row: { value: string }) => row.value === 'chatgpt.com')
    expect(chatgpt).toMatchObject({ visitors: 3 })
  })

  it('puts imported visits (NDJSON) from AI assistants in the channel', async () => {
    const site = await t.createSite(owner.cookie, owner.site.organizationId, 'example.com')
    const body = VISITS.map(([referrer, querystring], i) =>
      JSON.stringify({
        timestamp: new Date(NOW - 3_600_000 + i * 60_000).toISOString(),
        hostname: 'example.com',
        pathname: `/p${String(i).padStart(2, '0')}`,
        referrer,
        querystring,
        user_agent: CHROME_UA,
        ip_address: `81.2.69.${10 + i}`,
      }),
    ).join('\n')
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/import`,
      headers: { cookie: owner.cookie, 'content-type': 'application/x-ndjson' },
      payload: body,
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({ imported: VISITS.length, rejectedCount: 0 })
    expectVisits(await rowsOf(site.siteId))
  })

  it('puts imported Umami visits from AI assistants in the channel', async () => {
    const site = await t.createSite(owner.cookie, owner.site.organizationId, 'example.com')
    const header =
      'event_id,website_id,session_id,visit_id,created_at,url_path,url_query,utm_source,utm_medium,utm_campaign,utm_content,utm_term,referrer_path,referrer_query,referrer_domain,page_title,gclid,fbclid,msclkid,ttclid,li_fat_id,twclid,event_type,event_name,tag,hostname'
    const lines = VISITS.map(([referrer, querystring], i) => {
      const url = referrer === '' ? null : new URL(referrer)
      const utm = new URLSearchParams(querystring)
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`
      return [
        id,
        '7fdaae02-06af-57dd-a28a-85486ae83cd6',
        `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        `20000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        `2024-04-15 10:${String(i).padStart(2, '0')}:00.000000+00`,
        `/p${String(i).padStart(2, '0')}`,
        '',
        utm.get('utm_source') ?? '',
        utm.get('utm_medium') ?? '',
        utm.get('utm_campaign') ?? '',
        '',
        '',
        url?.pathname ?? '',
        url?.search.slice(1) ?? '',
        url?.hostname ?? '',
        'Title',
        '',
        '',
        '',
        '',
        '',
        '',
        '1',
        '',
        '',
        'example.com',
      ].join(',')
    })
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/import?format=umami`,
      headers: { cookie: owner.cookie, 'content-type': 'text/csv' },
      payload: [header, ...lines].join('\n'),
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({ imported: VISITS.length, rejectedCount: 0 })
    const rows = await rowsOf(site.siteId)
    // Umami keeps the referrer's domain without 'www.' as the importer folds it, like live tracking.
    expectVisits(rows)
  })
})
