import { describe, expect, it } from 'vitest'
import type { ImportEntry } from './import-entry.js'
import { umamiEntries } from './umami-entries.js'

const HEADER =
  'event_id,website_id,session_id,visit_id,created_at,url_path,url_query,utm_source,referrer_path,referrer_query,referrer_domain,page_title,gclid,event_type,event_name,tag,hostname'
const WEBSITE = '11111111-1111-4111-8111-111111111111'
const OTHER = '22222222-2222-4222-8222-222222222222'
const VISITOR = 'aaaaaaaa-0000-4000-8000-000000000001'
const VISIT = 'bbbbbbbb-0000-4000-8000-000000000001'
const id = (n: number) => `cccccccc-0000-4000-8000-${String(n).padStart(12, '0')}`

/** A row in header order from the given columns (others empty). */
function row(columns: Record<string, string>): string[] {
  return HEADER.split(',').map((name) => columns[name] ?? '')
}
const base = (n: number, extra: Record<string, string> = {}) =>
  row({
    event_id: id(n),
    website_id: WEBSITE,
    session_id: VISITOR,
    visit_id: VISIT,
    created_at: '2024-03-01 10:00:00.123+00',
    url_path: '/',
    event_type: '1',
    hostname: 'Example.com',
    ...extra,
  })

async function entries(rows: string[][], options = {}): Promise<ImportEntry[]> {
  const records = [HEADER.split(','), ...rows].map((fields, i) => ({ record: i + 1, fields }))
  const out: ImportEntry[] = []
  for await (const entry of umamiEntries(records, {
    defaultHostname: 'site.example',
    keepQuerystring: true,
    ...options,
  })) {
    out.push(entry)
  }
  return out
}

describe('umamiEntries', () => {
  it('maps a pageview: ids, visit as session, visitor as user, referrer rebuilt, channel and UTM as tracking derives them', async () => {
    const [entry] = await entries([
      base(1, {
        url_path: '/pricing',
        url_query: '?utm_source=newsletter&utm_medium=email&a=1',
        referrer_domain: 'www.Google.com',
        referrer_path: '/search',
        referrer_query: 'q=x',
        page_title: 'Pricing, "plans"',
      }),
    ])
    expect(entry).toEqual({
      line: 1,
      stored: expect.objectContaining({
        event_id: id(1),
        timestamp: '2024-03-01T10:00:00.123Z',
        type: 'pageview',
        session_id: VISIT,
        user_id: VISITOR,
        hostname: 'example.com',
        pathname: '/pricing',
        querystring: 'utm_source=newsletter&utm_medium=email&a=1',
        page_title: 'Pricing, "plans"',
        referrer: 'https://www.Google.com/search?q=x',
        referrer_domain: 'google.com',
        channel: 'Email',
        utm_source: 'newsletter',
        utm_medium: 'email',
        event_name: '',
        browser: '',
        screen_width: 0,
        lat: null,
      }),
    })
  })

  it("lets Umami's UTM and click-id columns win, drops the query when the site keeps none, and takes custom events", async () => {
    const [paid, custom] = await entries(
      [
        base(1, { url_query: 'utm_source=old', utm_source: 'google', gclid: 'abc', hostname: '' }),
        base(2, { event_type: '2', event_name: 'signup', tag: 'x' }),
      ],
      { keepQuerystring: false },
    )
    expect(paid).toMatchObject({
      stored: { utm_source: 'google', channel: 'Paid Search', querystring: '', hostname: 'site.example' },
    })
    expect(custom).toMatchObject({ stored: { type: 'custom_event', event_name: 'signup', properties: '' } })
  })

  it('names the column of a bad row, and takes one website per import', async () => {
    const result = await entries([
      base(1),
      base(2, { event_id: 'nope' }),
      base(3, { created_at: '2024-03-01' }),
      base(4, { event_type: '3' }),
      base(5, { event_type: '2' }),
      base(6, { website_id: OTHER }),
      base(7).slice(1),
      base(8, { url_path: 'x'.repeat(2049) }),
    ])
    expect(result.map((entry) => ('error' in entry ? [entry.line, entry.error] : entry.line))).toEqual([
      1,
      [2, 'event_id: must be a UUID'],
      [3, 'created_at: must be a timestamp with a time zone, e.g. 2024-03-01 10:00:00.123+00'],
      [4, 'event_type: must be 1 (pageview) or 2 (custom event), got 3'],
      [5, 'event_name: is required when event_type is 2'],
      [6, expect.stringMatching(/^website_id: 22222222-.* is not the first row's website/)],
      [7, 'The row has 16 fields; the header has 17'],
      [8, 'url_path: must be at most 2048 characters'],
    ])
    const chosen = await entries([base(1), base(2, { website_id: OTHER })], {
      websiteId: OTHER.toUpperCase(),
    })
    expect(chosen).toEqual([{ line: 2, stored: expect.objectContaining({ event_id: id(2) }) }])
  })

  it('refuses a header without a required column', async () => {
    const records = [{ record: 1, fields: ['event_id', 'website_id'] }]
    const first = umamiEntries(records, { defaultHostname: '', keepQuerystring: true }).next()
    await expect(first).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^The CSV header has no session_id column/),
    })
  })
})
