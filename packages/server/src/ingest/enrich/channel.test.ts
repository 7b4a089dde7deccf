import { describe, expect, it } from 'vitest'
import { type Channel, parseUtm, toChannel } from './channel.js'

const HOST = 'www.example.com'

/** [description, referrer, querystring, expected channel]; the page host is always www.example.com. */
const CASES: ReadonlyArray<readonly [string, string, string, Channel]> = [
  // Direct
  ['no referrer, no tags', '', '', 'Direct'],
  ['no referrer, unrelated parameters', '', '?page=2&sort=asc', 'Direct'],
  ['about:blank referrer', 'about:blank', '', 'Direct'],
  ['file: referrer', 'file:///C:/Users/me/page.html', '', 'Direct'],
  ['unparsable referrer', 'http://', '', 'Direct'],
  ['garbage referrer', '%%% not a url %%%', '', 'Direct'],
  ['utm_source=(direct)', 'https://www.google.com/', 'utm_source=(direct)&utm_medium=(none)', 'Direct'],
  // Internal
  ['same host', 'https://www.example.com/pricing', '', 'Internal'],
  ['same host without www.', 'https://example.com/blog?x=1', '', 'Internal'],
  ['same host, upper case and trailing dot', 'HTTPS://WWW.EXAMPLE.COM./', '', 'Internal'],
  ['other subdomain is not internal', 'https://blog.example.com/', '', 'Referral'],
  // Organic Search
  ['google.com', 'https://www.google.com/', '', 'Organic Search'],
  ['google country domain', 'https://www.google.co.uk/', '', 'Organic Search'],
  ['google.com.au', 'https://google.com.au/search?q=x', '', 'Organic Search'],
  ['bing', 'https://www.bing.com/search?q=pathlight', '', 'Organic Search'],
  ['duckduckgo', 'https://duckduckgo.com/', '', 'Organic Search'],
  ['yahoo search', 'https://search.yahoo.com/', '', 'Organic Search'],
  ['yandex.ru', 'https://yandex.ru/search/?text=x', '', 'Organic Search'],
  ['baidu', 'https://www.baidu.com/link?url=abc', '', 'Organic Search'],
  ['ecosia', 'https://www.ecosia.org/', '', 'Organic Search'],
  ['qwant', 'https://www.qwant.com/', '', 'Organic Search'],
  ['naver', 'https://m.search.naver.com/search.naver?query=x', '', 'Organic Search'],
  ['startpage', 'https://www.startpage.com/', '', 'Organic Search'],
  ['brave search', 'https://search.brave.com/search?q=x', '', 'Organic Search'],
  ['Google app on Android', 'android-app://com.google.android.googlequicksearchbox/', '', 'Organic Search'],
  ['bare host referrer', 'google.com/search?q=x', '', 'Organic Search'],
  ['utm_medium=organic', '', 'utm_source=newsletter-partner&utm_medium=organic', 'Organic Search'],
  ['utm_source=google without medium', '', 'utm_source=google', 'Organic Search'],
  // Paid Search
  ['utm google cpc', '', 'utm_source=google&utm_medium=cpc&utm_campaign=brand', 'Paid Search'],
  ['gclid from google', 'https://www.google.com/', 'gclid=Cj0KCQ', 'Paid Search'],
  ['gclid without referrer', '', '?gclid=Cj0KCQ', 'Paid Search'],
  ['msclkid', 'https://www.bing.com/', 'msclkid=abc123', 'Paid Search'],
  ['ppc from a search referrer', 'https://duckduckgo.com/', 'utm_medium=ppc', 'Paid Search'],
  ['paid medium, unknown source ("Paid Other")', '', 'utm_source=partner&utm_medium=cpc', 'Paid Search'],
  // Organic Social
  ['facebook', 'https://m.facebook.com/', '', 'Organic Social'],
  ['facebook link shim', 'https://l.facebook.com/l.php?u=x', '', 'Organic Social'],
  ['instagram', 'https://l.instagram.com/', '', 'Organic Social'],
  ['t.co', 'https://t.co/abc123', '', 'Organic Social'],
  ['x.com', 'https://x.com/someone/status/1', '', 'Organic Social'],
  ['linkedin', 'https://www.linkedin.com/feed/', '', 'Organic Social'],
  ['reddit', 'https://old.reddit.com/r/selfhosted/', '', 'Organic Social'],
  ['pinterest country domain', 'https://www.pinterest.co.uk/', '', 'Organic Social'],
  ['tiktok', 'https://www.tiktok.com/', '', 'Organic Social'],
  ['hacker news', 'https://news.ycombinator.com/item?id=1', '', 'Organic Social'],
  ['utm_medium=social', '', 'utm_source=mastodon&utm_medium=social', 'Organic Social'],
  ['utm_source=fb', '', 'utm_source=fb', 'Organic Social'],
  ['fbclid is not paid', '', 'fbclid=IwAR0abc', 'Organic Social'],
  ['fbclid with a facebook referrer', 'https://l.facebook.com/', 'fbclid=IwAR0abc', 'Organic Social'],
  // Paid Social
  ['utm facebook paid_social', '', 'utm_source=facebook&utm_medium=paid_social', 'Paid Social'],
  ['utm instagram cpc', 'https://l.instagram.com/', 'utm_source=ig&utm_medium=cpc', 'Paid Social'],
  ['paid medium with a social referrer', 'https://www.linkedin.com/', 'utm_medium=paid', 'Paid Social'],
  ['ttclid', '', 'ttclid=E.C.P.abc', 'Paid Social'],
  ['fbclid with a paid medium', 'https://l.facebook.com/', 'fbclid=x&utm_medium=cpc', 'Paid Social'],
  // Video
  ['youtube', 'https://www.youtube.com/watch?v=abc', '', 'Video'],
  ['youtu.be', 'https://youtu.be/abc', '', 'Video'],
  ['vimeo', 'https://vimeo.com/123', '', 'Video'],
  ['paid youtube', '', 'utm_source=youtube&utm_medium=cpv', 'Video'],
  ['gclid from youtube', 'https://m.youtube.com/', 'gclid=abc', 'Video'],
  ['utm_medium=video', '', 'utm_source=partner&utm_medium=video', 'Video'],
  // Email
  ['gmail web', 'https://mail.google.com/', '', 'Email'],
  ['outlook web', 'https://outlook.live.com/', '', 'Email'],
  ['yahoo mail', 'https://mail.yahoo.com/d/folders/1', '', 'Email'],
  ['Gmail app on Android', 'android-app://com.google.android.gm/', '', 'Email'],
  ['utm_medium=email', '', 'utm_source=weekly&utm_medium=email', 'Email'],
  ['utm_medium=e-mail, source a search engine', '', 'utm_source=google&utm_medium=e-mail', 'Email'],
  ['utm_source=newsletter', '', 'utm_source=newsletter&utm_campaign=may', 'Email'],
  // Affiliates
  [
    'utm_medium=affiliate',
    'https://deals.example.net/',
    'utm_source=dealsite&utm_medium=affiliate',
    'Affiliates',
  ],
  // Display
  ['utm_medium=display', '', 'utm_source=adnetwork&utm_medium=display', 'Display'],
  ['utm_medium=banner', 'https://news.example.org/', 'utm_medium=banner', 'Display'],
  ['utm_medium=cpm, unknown source', '', 'utm_source=adnetwork&utm_medium=cpm', 'Display'],
  ['dclid', '', 'dclid=abc', 'Display'],
  // Referral
  ['any other site', 'https://github.com/pathlight/pathlight', '', 'Referral'],
  ['other site with port', 'http://localhost:3000/', '', 'Referral'],
  ['mastodon instance other than mastodon.social', 'https://fosstodon.org/@someone', '', 'Referral'],
  ['news.google.com is not search', 'https://news.google.com/', '', 'Referral'],
  ['utm_medium=referral', '', 'utm_source=partner&utm_medium=referral', 'Referral'],
  ['unrecognised tags without referrer', '', 'utm_source=flyer&utm_medium=qr', 'Referral'],
  ['campaign only without referrer', '', 'utm_campaign=spring', 'Referral'],
  // Precedence of tags over the referrer
  ['email tag beats a search referrer', 'https://www.google.com/', 'utm_medium=email', 'Email'],
  [
    'paid tag beats an organic referrer',
    'https://www.google.com/',
    'utm_source=google&utm_medium=cpc',
    'Paid Search',
  ],
  [
    'social tag beats an internal referrer',
    'https://www.example.com/',
    'utm_source=twitter',
    'Organic Social',
  ],
  [
    'unrecognised tags fall back to the referrer',
    'https://www.bing.com/',
    'utm_source=flyer&utm_medium=qr',
    'Organic Search',
  ],
  ['unrecognised tags with an internal referrer', 'https://www.example.com/', 'utm_campaign=x', 'Internal'],
  ['tag values are case-insensitive', '', 'utm_source=Google&utm_medium=CPC', 'Paid Search'],
  ['utm_term alone is not a tag', '', 'utm_term=shoes', 'Direct'],
]

describe('toChannel', () => {
  it.each(CASES)('%s', (_, referrer, querystring, channel) => {
    expect(toChannel({ referrer, hostname: HOST, querystring })).toBe(channel)
  })

  it('treats the querystring the same with or without a leading "?"', () => {
    for (const [, referrer, querystring] of CASES) {
      const bare = querystring.replace(/^\?/, '')
      expect(toChannel({ referrer, hostname: HOST, querystring: `?${bare}` })).toBe(
        toChannel({ referrer, hostname: HOST, querystring: bare }),
      )
    }
  })

  it('compares the page hostname without www., case or port', () => {
    const referrer = 'https://example.com/'
    expect(toChannel({ referrer, hostname: 'EXAMPLE.com', querystring: '' })).toBe('Internal')
    expect(toChannel({ referrer, hostname: 'example.com:8080', querystring: '' })).toBe('Internal')
    expect(toChannel({ referrer: 'http://[::1]:3000/', hostname: '[::1]:3000', querystring: '' })).toBe(
      'Internal',
    )
    expect(toChannel({ referrer, hostname: '', querystring: '' })).toBe('Referral')
  })

  it('never throws on malformed input', () => {
    const referrers = [
      'http://',
      'https://%',
      'https://exa mple.com/',
      '://nohost',
      'javascript:alert(1)',
      'data:text/html,hi',
      '\u0000\uffff',
      'http://[::1',
      'x'.repeat(10_000),
      'https://www.google.com/'.repeat(100),
    ]
    const querystrings = [
      '%',
      '%E0%A4%A',
      'utm_source=%ZZ',
      '&&&==&',
      '?utm_source',
      'utm_medium=%00cpc',
      '#frag',
    ]
    for (const referrer of referrers) {
      for (const querystring of querystrings) {
        expect(() => toChannel({ referrer, hostname: HOST, querystring })).not.toThrow()
        expect(() => toChannel({ referrer, hostname: referrer, querystring })).not.toThrow()
      }
    }
  })
})

describe('parseUtm', () => {
  it('reads the five UTM parameters with or without a leading "?"', () => {
    const expected = {
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'spring sale',
      utm_term: 'running shoes',
      utm_content: 'header/link',
    }
    const query =
      'utm_source=newsletter&utm_medium=email&utm_campaign=spring+sale&utm_term=running%20shoes' +
      '&utm_content=header%2Flink&other=1'
    expect(parseUtm(query)).toEqual(expected)
    expect(parseUtm(`?${query}`)).toEqual(expected)
  })

  it('returns empty strings for absent parameters', () => {
    expect(parseUtm('')).toEqual({
      utm_source: '',
      utm_medium: '',
      utm_campaign: '',
      utm_term: '',
      utm_content: '',
    })
    expect(parseUtm('?utm_source')).toMatchObject({ utm_source: '' })
  })

  it('keeps the first value, trims it and keeps its case', () => {
    expect(parseUtm('utm_source=+Twitter+&utm_source=facebook').utm_source).toBe('Twitter')
  })

  it('does not match parameter names case-insensitively', () => {
    expect(parseUtm('UTM_SOURCE=google').utm_source).toBe('')
  })

  it('keeps malformed percent escapes as written', () => {
    expect(parseUtm('utm_campaign=100%').utm_campaign).toBe('100%')
    expect(parseUtm('utm_campaign=%ZZ').utm_campaign).toBe('%ZZ')
  })
})
