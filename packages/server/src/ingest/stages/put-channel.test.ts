import { describe, expect, it } from 'vitest'
import { rowColumns, stageDraft } from '../draft.fixture.js'
import { putChannel } from './put-channel.js'

const SOURCE = [
  'channel',
  'referrer_domain',
  'querystring',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
] as const

/** The source columns `putChannel` fills for this body, on a site with or without `trackUrlParams`. */
const sourceOf = (body: Record<string, unknown>, trackUrlParams = true) => {
  const draft = stageDraft({ body, site: { trackUrlParams } })
  expect(putChannel(draft)).toEqual({ ok: true })
  return rowColumns(draft, SOURCE)
}
const noUtm = { utm_source: '', utm_medium: '', utm_campaign: '', utm_term: '', utm_content: '' }

describe('putChannel', () => {
  it('calls a visit without referrer or tags Direct', () => {
    expect(sourceOf({})).toEqual({ channel: 'Direct', referrer_domain: '', querystring: '', ...noUtm })
  })

  it('takes a search engine referrer for Organic Search, its domain without www.', () => {
    expect(sourceOf({ referrer: 'https://www.google.com/search?q=analytics' })).toMatchObject({
      channel: 'Organic Search',
      referrer_domain: 'google.com',
    })
  })

  it('lets campaign tags win over the referrer, filling the UTM columns (leading ? dropped)', () => {
    const querystring =
      '?utm_source=google&utm_medium=cpc&utm_campaign=spring&utm_term=web+analytics&utm_content=ad1'
    expect(sourceOf({ querystring, referrer: 'https://news.ycombinator.com/' })).toEqual({
      channel: 'Paid Search',
      referrer_domain: 'news.ycombinator.com',
      querystring: querystring.slice(1),
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'spring',
      utm_term: 'web analytics',
      utm_content: 'ad1',
    })
  })

  it('calls a referrer on the page’s own host Internal', () => {
    expect(sourceOf({ hostname: 'example.com', referrer: 'https://www.example.com/blog' })).toMatchObject({
      channel: 'Internal',
    })
  })

  it('keeps the querystring only on a site with trackUrlParams, the tags either way', () => {
    const body = { querystring: 'utm_source=newsletter&id=42' }
    expect(sourceOf(body, true)).toMatchObject({
      querystring: 'utm_source=newsletter&id=42',
      utm_source: 'newsletter',
    })
    // The same source again (answered from the stage's cache) on a site without it.
    expect(sourceOf(body, false)).toMatchObject({ querystring: '', utm_source: 'newsletter' })
  })

  it('leaves the referrer domain empty for a referrer that is not a URL', () => {
    expect(sourceOf({ referrer: 'not a url' })).toMatchObject({ referrer_domain: '' })
  })
})
