/**
 * Acquisition channel of a visit, from its UTM tags, ad click ids and referrer, after the rules of
 * Google Analytics 4's default channel grouping (our own implementation and our own source lists).
 *
 * Tags describe the campaign deliberately, so they win over the referrer; the referrer decides when the
 * landing URL carries no tags or tags that no rule recognises.
 */

/**
 * Acquisition channel:
 * - 'Direct': no referrer and no tags (typed URL, bookmark, app without referrer, `utm_source=(direct)`).
 * - 'Organic Search' / 'Paid Search': a search engine, unpaid or paid (paid medium, Google/Microsoft Ads
 *   click id).
 * - 'Organic Social' / 'Paid Social': a social network or community site, unpaid or paid.
 * - 'Email': webmail referrer or an email-like `utm_source`/`utm_medium`.
 * - 'Affiliates': `utm_medium=affiliate`.
 * - 'Display': display advertising (`utm_medium` display, banner, expandable, interstitial, cpm; DV360
 *   `dclid`).
 * - 'Video': video platforms (YouTube, Vimeo, Twitch...), paid or not.
 * - 'Referral': a link on any other site, `utm_medium` referral/app/link, or tags no rule recognises.
 * - 'Internal': the referrer is the tracked site itself (same host, 'www.' ignored).
 * - 'AI Assistants': a link in an AI assistant's answer (ChatGPT, Perplexity, Claude, Gemini, Copilot...:
 *   `enrich/ai-assistants.ts`), by its referrer or its `utm_source`.
 */
import { channelNames } from '@pathlight/protocol/enums'
import { aiAssistantOf } from './ai-assistants.js'

export const channels = channelNames

/** One of `channels`. */
export type Channel = (typeof channels)[number]

/** The five UTM parameters of a landing URL, each '' when absent; values are decoded and trimmed. */
export interface UtmParameters {
  utm_source: string
  utm_medium: string
  utm_campaign: string
  utm_term: string
  utm_content: string
}

/** What kind of site a source name, referrer host or click id stands for. */
type SourceCategory = 'search' | 'social' | 'video' | 'email'

/**
 * Extracts the UTM parameters from a querystring.
 *
 * @param querystring the query part of the page URL, with or without the leading '?' ('a=1&utm_source=x').
 *   Parsed as `application/x-www-form-urlencoded` ('+' is a space, percent escapes decoded; malformed
 *   escapes are kept as written). Parameter names are case-sensitive, as in Google Analytics.
 * @returns the first value of each parameter, trimmed; '' when absent. Never throws.
 */
export function parseUtm(querystring: string): UtmParameters {
  const params = new URLSearchParams(querystring.startsWith('?') ? querystring.slice(1) : querystring)
  const get = (name: string): string => (params.get(name) ?? '').trim()
  return {
    utm_source: get('utm_source'),
    utm_medium: get('utm_medium'),
    utm_campaign: get('utm_campaign'),
    utm_term: get('utm_term'),
    utm_content: get('utm_content'),
  }
}

/**
 * Decides the {@link Channel} of a pageview.
 *
 * @param input.referrer `document.referrer` of the landing page ('' when none). Only http, https and
 *   android-app URLs count as referrers; a bare host ('google.com/search') is read as https. Anything else
 *   (about:blank, file:, malformed text) counts as no referrer.
 * @param input.hostname host of the tracked page ('www.' and a ':port' are ignored for the Internal test).
 * @param input.querystring query part of the page URL, with or without '?'.
 * @returns the channel. Never throws.
 *
 * Rules, first match wins:
 * 1. `utm_source=(direct)` → Direct. An AI assistant's referrer host or `utm_source` → AI Assistants,
 *    before every tag rule: ChatGPT tags the links it cites `utm_source=chatgpt.com`, which would
 *    otherwise make the visit a campaign or a referral.
 * 2. Paid (`utm_medium` contains 'cp' — cpc, cpm, cpv... — or is ppc, retargeting, paid*; or an ad click
 *    id: gclid/gbraid/wbraid/msclkid → search, ttclid/twclid/li_fat_id → social, dclid → display) with a
 *    source category from `utm_source`, else the referrer, else the click id: search → Paid Search,
 *    social → Paid Social, video → Video.
 * 3. Display mediums or dclid → Display.
 * 4. Other paid traffic → Paid Social with a social click id, else Paid Search (GA4's "Paid Other": this
 *    channel list has no such value, and Paid Search is the closest bucket for untargeted cpc/ppc tags).
 * 5. An explicit `utm_medium`: email-like (email, e-mail, e_mail, newsletter) → Email; affiliate →
 *    Affiliates; social, sm, social-media, social-network → Organic Social; containing 'video' → Video;
 *    organic → Organic Search; referral, app, link → Referral.
 * 6. Source category of `utm_source`, else of the referrer: search → Organic Search, social → Organic
 *    Social, video → Video, email → Email.
 * 7. fbclid or igshid → Organic Social. Facebook appends fbclid to every outbound link, organic posts
 *    included, so unlike gclid it does not mean paid.
 * 8. Referrer: the page's own host → Internal; a known search/social/video/webmail host → as in 6;
 *    any other valid referrer → Referral.
 * 9. No usable referrer: Referral when the URL carries tags (someone tagged a shared link; this list has
 *    no "Unassigned"), else Direct.
 *
 * Source lists (our own, curated): search engines (Google on any country domain, Bing, DuckDuckGo, Yahoo
 * Search, Yandex, Baidu, Ecosia, Qwant, Naver, Startpage, Brave Search, Kagi, Seznam, Sogou, 360 Search,
 * Ask, AOL Search); social networks (Facebook, Instagram, Threads, X/Twitter incl. t.co, LinkedIn,
 * Reddit, Pinterest, TikTok, Snapchat, Tumblr, Bluesky, mastodon.social, VK, OK, Weibo, Quora, Discord,
 * Telegram, WhatsApp, LINE, XING, and Hacker News: a community-voted link aggregator like Reddit, so
 * Social rather than Referral; other Mastodon instances cannot be listed and count as Referral); video
 * (YouTube, Vimeo, Twitch, Dailymotion); webmail (Gmail, Outlook, Yahoo Mail, AOL Mail, Proton Mail,
 * Fastmail, Zoho Mail, Yandex Mail, Mail.ru, Seznam Email, GMX, WEB.DE, any webmail.* host).
 */
export function toChannel(input: { referrer: string; hostname: string; querystring: string }): Channel {
  const params = new URLSearchParams(
    input.querystring.startsWith('?') ? input.querystring.slice(1) : input.querystring,
  )
  const source = (params.get('utm_source') ?? '').trim().toLowerCase()
  const medium = (params.get('utm_medium') ?? '')
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
  const campaign = (params.get('utm_campaign') ?? '').trim()
  const click = clickIdOf(params)
  const referrerHost = hostOfReferrer(input.referrer)
  const internal = referrerHost !== '' && foldHost(referrerHost) === foldHost(pageHost(input.hostname))
  const referrerCategory = referrerHost === '' || internal ? null : categoryOfHost(referrerHost)

  if (source === '(direct)') return 'Direct'
  if (!internal && aiAssistantOf(referrerHost, source) !== null) return 'AI Assistants'
  const tagged = source !== '' || medium !== '' || campaign !== '' || click !== null
  if (tagged) {
    const fromTags = channelFromTags(source, medium, click, referrerCategory)
    if (fromTags !== null) return fromTags
  }
  if (referrerHost === '') return tagged ? 'Referral' : 'Direct'
  if (internal) return 'Internal'
  return referrerCategory === null ? 'Referral' : organicChannel(referrerCategory)
}

/** What an ad or share click id in the URL says about the visit. */
type ClickId = { paid: true; category: SourceCategory | 'display' } | { paid: false; category: 'social' }

const CLICK_IDS: ReadonlyArray<readonly [string, ClickId]> = [
  ['gclid', { paid: true, category: 'search' }],
  ['gbraid', { paid: true, category: 'search' }],
  ['wbraid', { paid: true, category: 'search' }],
  ['msclkid', { paid: true, category: 'search' }],
  ['dclid', { paid: true, category: 'display' }],
  ['ttclid', { paid: true, category: 'social' }],
  ['twclid', { paid: true, category: 'social' }],
  ['li_fat_id', { paid: true, category: 'social' }],
  ['fbclid', { paid: false, category: 'social' }],
  ['igshid', { paid: false, category: 'social' }],
]

const PAID_MEDIUM = /^(.*cp.*|ppc|retargeting|paid.*)$/
const EMAIL_PATTERN = /e[-_ ]?mail|newsletter/
const DISPLAY_MEDIUMS: ReadonlySet<string> = new Set([
  'display',
  'banner',
  'expandable',
  'interstitial',
  'cpm',
])
const SOCIAL_MEDIUMS: ReadonlySet<string> = new Set(['social', 'sm', 'social-media', 'social-network'])
const REFERRAL_MEDIUMS: ReadonlySet<string> = new Set(['referral', 'app', 'link'])
const AFFILIATE_MEDIUMS: ReadonlySet<string> = new Set(['affiliate', 'affiliates'])

function clickIdOf(params: URLSearchParams): ClickId | null {
  for (const [name, click] of CLICK_IDS) if (params.has(name)) return click
  return null
}

function channelFromTags(
  source: string,
  medium: string,
  click: ClickId | null,
  referrerCategory: SourceCategory | null,
): Channel | null {
  const sourceCategory = source === '' ? null : categoryOfSource(source)
  const paidClick = click?.paid === true ? click : null
  const paid = PAID_MEDIUM.test(medium) || paidClick !== null
  if (paid) {
    const clickCategory = paidClick === null || paidClick.category === 'display' ? null : paidClick.category
    const category = sourceCategory ?? referrerCategory ?? clickCategory
    if (category === 'search') return 'Paid Search'
    if (category === 'social') return 'Paid Social'
    if (category === 'video') return 'Video'
  }
  if (DISPLAY_MEDIUMS.has(medium) || paidClick?.category === 'display') return 'Display'
  if (paid) return paidClick?.category === 'social' ? 'Paid Social' : 'Paid Search'

  if (EMAIL_PATTERN.test(medium)) return 'Email'
  if (AFFILIATE_MEDIUMS.has(medium)) return 'Affiliates'
  if (SOCIAL_MEDIUMS.has(medium)) return 'Organic Social'
  if (medium.includes('video')) return 'Video'
  if (medium === 'organic') return 'Organic Search'
  if (REFERRAL_MEDIUMS.has(medium)) return 'Referral'

  const category = sourceCategory ?? referrerCategory
  if (category !== null) return organicChannel(category)
  if (click !== null && !click.paid) return 'Organic Social'
  return null
}

function organicChannel(category: SourceCategory): Channel {
  switch (category) {
    case 'search':
      return 'Organic Search'
    case 'social':
      return 'Organic Social'
    case 'video':
      return 'Video'
    case 'email':
      return 'Email'
  }
}

/** `utm_source` values (lower case) that name a site rather than give its host. */
const SOURCE_NAMES: ReadonlyMap<string, SourceCategory> = new Map([
  ...names('search', [
    'google',
    'bing',
    'yahoo',
    'duckduckgo',
    'yandex',
    'baidu',
    'ecosia',
    'qwant',
    'naver',
    'startpage',
    'brave',
    'kagi',
    'seznam',
    'sogou',
    'ask',
  ]),
  ...names('social', [
    'facebook',
    'fb',
    'instagram',
    'ig',
    'threads',
    'twitter',
    'x',
    'linkedin',
    'reddit',
    'pinterest',
    'tiktok',
    'snapchat',
    'tumblr',
    'bluesky',
    'mastodon',
    'vk',
    'weibo',
    'quora',
    'discord',
    'telegram',
    'whatsapp',
    'hackernews',
    'hacker-news',
    'hn',
  ]),
  ...names('video', ['youtube', 'yt', 'vimeo', 'twitch', 'dailymotion']),
  ...names('email', ['gmail', 'outlook', 'mailchimp', 'klaviyo', 'sendgrid', 'brevo', 'mailerlite']),
])

function names(category: SourceCategory, list: readonly string[]): Array<[string, SourceCategory]> {
  return list.map((name) => [name, category])
}

function categoryOfSource(source: string): SourceCategory | null {
  if (EMAIL_PATTERN.test(source)) return 'email'
  const named = SOURCE_NAMES.get(source.replace(/[\s_]+/g, '-'))
  if (named !== undefined) return named
  // A source given as a host ('google.com', 'm.facebook.com', 't.co').
  return source.includes('.') ? categoryOfHost(source.replace(/\.$/, '')) : null
}

/** Hosts matched together with all their subdomains. */
const EMAIL_DOMAINS = [
  'mail.google.com',
  'inbox.google.com',
  'outlook.live.com',
  'outlook.office.com',
  'outlook.office365.com',
  'mail.yahoo.com',
  'mail.yahoo.co.jp',
  'mail.aol.com',
  'mail.proton.me',
  'mail.protonmail.com',
  'app.fastmail.com',
  'mail.zoho.com',
  'mail.yandex.ru',
  'mail.yandex.com',
  'e.mail.ru',
  'email.seznam.cz',
  'navigator.gmx.net',
  'mail.gmx.com',
  'mail.gmx.net',
  'navigator.web.de',
]
const VIDEO_DOMAINS = [
  'youtube.com',
  'youtu.be',
  'youtube-nocookie.com',
  'vimeo.com',
  'twitch.tv',
  'dailymotion.com',
]
const SOCIAL_DOMAINS = [
  'facebook.com',
  'fb.com',
  'fb.me',
  'messenger.com',
  'instagram.com',
  'threads.net',
  'threads.com',
  't.co',
  'twitter.com',
  'x.com',
  'linkedin.com',
  'lnkd.in',
  'reddit.com',
  'redd.it',
  'pin.it',
  'tiktok.com',
  'snapchat.com',
  'tumblr.com',
  'bsky.app',
  'mastodon.social',
  'vk.com',
  'ok.ru',
  'weibo.com',
  'weibo.cn',
  'quora.com',
  'discord.com',
  'discordapp.com',
  't.me',
  'web.telegram.org',
  'whatsapp.com',
  'wa.me',
  'line.me',
  'xing.com',
  'news.ycombinator.com',
]
const SEARCH_DOMAINS = [
  'bing.com',
  'duckduckgo.com',
  'search.yahoo.com',
  'search.yahoo.co.jp',
  'ya.ru',
  'baidu.com',
  'ecosia.org',
  'qwant.com',
  'search.naver.com',
  'startpage.com',
  'search.brave.com',
  'kagi.com',
  'search.seznam.cz',
  'sogou.com',
  'so.com',
  'search.aol.com',
  'ask.com',
]
/** Google search on any country domain (google.de, google.co.uk, google.com.au) and its search subdomains. */
const GOOGLE_SEARCH_HOST =
  /^(?:(?:www|m|images|scholar)\.)?google\.(?:[a-z]{2,3}|(?:com?|[a-z]{2})\.[a-z]{2})$/
const YANDEX_SEARCH_HOST = /^(?:www\.)?yandex\.(?:[a-z]{2,3}|com\.[a-z]{2})$/
const PINTEREST_HOST = /^(?:[a-z]{2,3}\.)?pinterest\.(?:[a-z]{2,3}|(?:com?)\.[a-z]{2})$/

/** Package names sent as `android-app://<package>/` referrers by Android apps. */
const ANDROID_APPS: ReadonlyMap<string, SourceCategory> = new Map([
  ['com.google.android.gm', 'email'],
  ['com.microsoft.office.outlook', 'email'],
  ['com.google.android.googlequicksearchbox', 'search'],
  ['com.google.android.youtube', 'video'],
  ['com.facebook.katana', 'social'],
  ['com.facebook.orca', 'social'],
  ['com.instagram.android', 'social'],
  ['com.twitter.android', 'social'],
  ['com.linkedin.android', 'social'],
  ['com.reddit.frontpage', 'social'],
  ['com.pinterest', 'social'],
  ['com.zhiliaoapp.musically', 'social'],
  ['org.telegram.messenger', 'social'],
  ['com.whatsapp', 'social'],
])

function categoryOfHost(host: string): SourceCategory | null {
  const app = ANDROID_APPS.get(host)
  if (app !== undefined) return app
  if (host.startsWith('webmail.') || inDomains(host, EMAIL_DOMAINS)) return 'email'
  if (inDomains(host, VIDEO_DOMAINS)) return 'video'
  if (inDomains(host, SOCIAL_DOMAINS) || PINTEREST_HOST.test(host)) return 'social'
  if (GOOGLE_SEARCH_HOST.test(host) || YANDEX_SEARCH_HOST.test(host) || inDomains(host, SEARCH_DOMAINS)) {
    return 'search'
  }
  return null
}

function inDomains(host: string, domains: readonly string[]): boolean {
  return domains.some((domain) => host === domain || host.endsWith(`.${domain}`))
}

const REFERRER_SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:', 'android-app:'])
const BARE_HOST = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d+)?(?:[/?#]|$)/i

/** Lower-case host of a referrer URL without a trailing dot, or '' when it is not a usable referrer. */
function hostOfReferrer(referrer: string): string {
  const text = referrer.trim()
  if (text === '') return ''
  let url = parseUrl(text)
  // 'example.com/page' and 'example.com:8080/' either fail to parse or parse as a made-up scheme.
  if ((url === null || !REFERRER_SCHEMES.has(url.protocol)) && BARE_HOST.test(text)) {
    url = parseUrl(`https://${text}`)
  }
  if (url === null || !REFERRER_SCHEMES.has(url.protocol)) return ''
  return url.hostname.toLowerCase().replace(/\.$/, '')
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text)
  } catch {
    return null
  }
}

/** The page hostname in the form `URL.hostname` gives: lower case, no port, no trailing dot. */
function pageHost(hostname: string): string {
  let host = hostname.trim().toLowerCase()
  const port = /^(\[[^\]]*\]|[^:]*):\d+$/.exec(host)
  if (port?.[1] !== undefined) host = port[1]
  return host.replace(/\.$/, '')
}

function foldHost(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : host
}
