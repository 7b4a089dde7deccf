/**
 * Re-deriving the AI Assistants channel of stored events (SQLite + chDB, through the app's reports):
 * events stored with the old channels (Referral for chatgpt.com, a campaign's Referral for
 * `utm_source=chatgpt.com`) keep them until `rederiveAiChannels` runs; then the channels and
 * referrers reports, read from the session rollups, count them as AI Assistants and name the
 * assistant; other events keep their channel; a second run changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventRow } from '../storage/events/event-row.fixture.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import { rederiveAiChannels } from './rederive-channels.js'

const NOW = Date.parse('2026-11-23T12:00:00.000Z')
const DAY = 'start_date=2026-11-22&end_date=2026-11-22'

describe('rederiveAiChannels', () => {
  let t: TestInstance
  let owner: Awaited<ReturnType<TestInstance['seed']>>

  beforeAll(async () => {
    t = await openTestInstance({ clock: () => NOW })
    owner = await t.seed()
  }, 60_000)
  afterAll(() => t?.close())

  const breakdown = async (siteId: number, name: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${siteId}/breakdown/${name}?${DAY}`,
      headers: { cookie: owner.cookie },
    })
    expect(response.statusCode, response.body).toBe(200)
    return Object.fromEntries(
      response.json().data.map((row: { value: string; visitors: number }) => [row.value, row.visitors]),
    )
  }

  it('moves stored visits from AI assistants to the channel and keeps the rollups equal', async () => {
    const site = await t.createSite(owner.cookie, owner.site.organizationId, 'example.com')
    const visit = (i: number, fields: Record<string, string>) =>
      eventRow({
        site_id: site.siteId,
        session_id: `s${i}`,
        user_id: `u${i}`,
        timestamp: `2026-11-22T${String(8 + i).padStart(2, '0')}:10:00.000Z`,
        referrer: '',
        referrer_domain: '',
        utm_source: '',
        utm_medium: '',
        utm_campaign: '',
        ...fields,
      })
    await t.services.events.insert([
      visit(0, { referrer: 'https://chatgpt.com/', referrer_domain: 'chatgpt.com', channel: 'Referral' }),
      visit(1, { utm_source: 'chatgpt.com', channel: 'Referral' }),
      visit(2, {
        referrer: 'https://www.perplexity.ai/',
        referrer_domain: 'perplexity.ai',
        channel: 'Referral',
      }),
      visit(3, {
        referrer: 'https://news.example.org/',
        referrer_domain: 'news.example.org',
        channel: 'Referral',
      }),
      visit(4, {
        referrer: 'https://www.google.com/',
        referrer_domain: 'google.com',
        channel: 'Organic Search',
      }),
    ])
    expect(await breakdown(site.siteId, 'channels')).toEqual({ Referral: 4, 'Organic Search': 1 })

    expect(await rederiveAiChannels(t.services.events, site.siteId)).toBe(3)
    expect(await breakdown(site.siteId, 'channels')).toEqual({
      'AI Assistants': 3,
      Referral: 1,
      'Organic Search': 1,
    })
    expect(await breakdown(site.siteId, 'referrers')).toEqual({
      'chatgpt.com': 2,
      'perplexity.ai': 1,
      'news.example.org': 1,
      'google.com': 1,
    })
    expect(await rederiveAiChannels(t.services.events, site.siteId)).toBe(0)
  })
})
