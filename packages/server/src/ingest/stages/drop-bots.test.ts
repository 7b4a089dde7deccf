import { describe, expect, it } from 'vitest'
import { stageDraft } from '../draft.fixture.js'
import { dropBots } from './drop-bots.js'

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const HEADLESS_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36'
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:124.0) Gecko/20100101 Firefox/124.0'

describe('dropBots', () => {
  it.each([
    ['no User-Agent header', undefined, 'empty_user_agent'],
    ['an empty one', '', 'empty_user_agent'],
    ['the log placeholder "-"', '-', 'empty_user_agent'],
    ['HeadlessChrome', HEADLESS_CHROME, 'headless_browser'],
    ['Googlebot', GOOGLEBOT, 'crawler'],
    ['curl', 'curl/8.5.0', 'crawler'],
  ])('refuses %s on a site that blocks bots', (_name, userAgent, bot) => {
    const draft = stageDraft({ site: { blockBots: true }, incoming: { userAgent } })
    expect(dropBots(draft)).toEqual({ ok: false, reason: { kind: 'bot', bot } })
  })

  it('lets a desktop browser through', () => {
    expect(dropBots(stageDraft({ site: { blockBots: true }, incoming: { userAgent: FIREFOX } }))).toEqual({
      ok: true,
    })
  })

  it('lets bots through on a site with blockBots off', () => {
    for (const userAgent of ['', HEADLESS_CHROME, GOOGLEBOT]) {
      expect(dropBots(stageDraft({ site: { blockBots: false }, incoming: { userAgent } }))).toEqual({
        ok: true,
      })
    }
  })

  it('lets bots through when an API key authenticated the request (the owner’s server sends on purpose)', () => {
    const draft = stageDraft({
      site: { blockBots: true },
      incoming: { userAgent: GOOGLEBOT },
      authenticated: true,
    })
    expect(dropBots(draft)).toEqual({ ok: true })
  })
})
