/**
 * The crawlers and agents named by their user agent: each one's name, operator and category.
 *
 * Source: the operators' own documentation of their user agents (OpenAI "Overview of OpenAI
 * crawlers", Anthropic "Does Anthropic crawl data from the web", Perplexity "Perplexity crawlers",
 * Google "Google's common crawlers" and "user-triggered fetchers", Microsoft Bing "Which crawlers
 * does Bing use", Apple "About Applebot", Meta "Meta web crawlers", Amazon "Amazonbot", Common
 * Crawl "CCBot", Yandex, Baidu, Ahrefs, Semrush, Majestic, Moz and the monitors' help pages), and the
 * AI agents of isbot's crawler fixture (`isbot-crawlers.yml`, isbot 5.2). Compiled 2026-12.
 * Refresh: add or correct an entry here when an operator documents a new agent (docs/crawlers.md);
 * whether a request is a bot at all comes from the `isbot` package, maintained upstream.
 *
 * Order matters: the first pattern that matches names the agent, so specific tokens come before the
 * tokens they contain.
 */

/** What an agent does with what it fetches. */
export const crawlerCategories = [
  'ai_training',
  'ai_search',
  'ai_assistant',
  'search_engine',
  'seo',
  'monitor',
  'other',
] as const
/** One of `crawlerCategories`. */
export type CrawlerCategory = (typeof crawlerCategories)[number]

/** How people call each category. */
export const crawlerCategoryLabels: Readonly<Record<CrawlerCategory, string>> = {
  ai_training: 'AI training crawler',
  ai_search: 'AI search indexer',
  ai_assistant: 'AI assistant fetching for a user',
  search_engine: 'Search engine',
  seo: 'SEO tool',
  monitor: 'Monitor',
  other: 'Other bot',
}

/** One known agent. */
export interface CrawlerAgent {
  /** The agent's name as its operator writes it ('GPTBot'). */
  name: string
  /** The company or project that runs it. */
  operator: string
  category: CrawlerCategory
  /** Matched against the user agent, case-insensitively. */
  pattern: RegExp
}

type Entry = readonly [name: string, operator: string, category: CrawlerCategory, token?: string]

/** [name, operator, category, token when it differs from the name]; the token is matched as written. */
const ENTRIES: readonly Entry[] = [
  // AI assistants fetching a page because a person asked.
  ['ChatGPT-User', 'OpenAI', 'ai_assistant'],
  ['ChatGPT Agent', 'OpenAI', 'ai_assistant', 'ChatGPT Agent'],
  ['Claude-User', 'Anthropic', 'ai_assistant'],
  ['Perplexity-User', 'Perplexity', 'ai_assistant'],
  ['MistralAI-User', 'Mistral AI', 'ai_assistant'],
  ['Google-NotebookLM', 'Google', 'ai_assistant'],
  ['Gemini-Deep-Research', 'Google', 'ai_assistant'],
  ['meta-externalfetcher', 'Meta', 'ai_assistant'],
  ['Amzn-User', 'Amazon', 'ai_assistant'],
  ['DuckAssistBot', 'DuckDuckGo', 'ai_assistant'],
  ['Manus-User', 'Manus', 'ai_assistant'],
  ['Devin', 'Cognition', 'ai_assistant', 'Devin/'],
  ['Claude Code', 'Anthropic', 'ai_assistant', 'claude-code/'],
  // AI search indexers.
  ['OAI-SearchBot', 'OpenAI', 'ai_search'],
  ['Claude-SearchBot', 'Anthropic', 'ai_search'],
  ['PerplexityBot', 'Perplexity', 'ai_search'],
  ['YouBot', 'You.com', 'ai_search'],
  ['PhindBot', 'Phind', 'ai_search'],
  ['Amzn-SearchBot', 'Amazon', 'ai_search'],
  ['iAskBot', 'iAsk', 'ai_search', 'iAskBot'],
  ['AndiBot', 'Andi', 'ai_search'],
  ['kagi-fetcher', 'Kagi', 'ai_search'],
  // AI training crawlers.
  ['GPTBot', 'OpenAI', 'ai_training'],
  ['ClaudeBot', 'Anthropic', 'ai_training'],
  ['anthropic-ai', 'Anthropic', 'ai_training'],
  ['Claude-Web', 'Anthropic', 'ai_training'],
  ['Google-Extended', 'Google', 'ai_training'],
  ['Google-CloudVertexBot', 'Google', 'ai_training'],
  ['Applebot-Extended', 'Apple', 'ai_training'],
  ['CCBot', 'Common Crawl', 'ai_training'],
  ['Bytespider', 'ByteDance', 'ai_training'],
  ['TikTokSpider', 'ByteDance', 'ai_training'],
  ['meta-externalagent', 'Meta', 'ai_training'],
  ['FacebookBot', 'Meta', 'ai_training'],
  ['Amazonbot', 'Amazon', 'ai_training'],
  ['cohere-training-data-crawler', 'Cohere', 'ai_training'],
  ['cohere-ai', 'Cohere', 'ai_training'],
  ['AI2Bot', 'Allen Institute for AI', 'ai_training'],
  ['Ai2Bot-Dolma', 'Allen Institute for AI', 'ai_training'],
  ['Diffbot', 'Diffbot', 'ai_training'],
  ['PanguBot', 'Huawei', 'ai_training'],
  ['Timpibot', 'Timpi', 'ai_training'],
  ['omgili', 'Webz.io', 'ai_training', 'omgili'],
  ['webzio-extended', 'Webz.io', 'ai_training'],
  ['ImagesiftBot', 'ImageSift', 'ai_training'],
  ['img2dataset', 'img2dataset', 'ai_training'],
  ['DeepSeekBot', 'DeepSeek', 'ai_training'],
  ['Kangaroo Bot', 'Kangaroo LLM', 'ai_training'],
  ['VelenPublicWebCrawler', 'Velen', 'ai_training'],
  // Search engines.
  ['AdsBot-Google', 'Google', 'other'],
  ['Mediapartners-Google', 'Google', 'other'],
  ['Storebot-Google', 'Google', 'search_engine'],
  ['GoogleOther', 'Google', 'other'],
  ['Google-InspectionTool', 'Google', 'seo'],
  ['Googlebot', 'Google', 'search_engine'],
  ['bingbot', 'Microsoft', 'search_engine'],
  ['msnbot', 'Microsoft', 'search_engine'],
  ['BingPreview', 'Microsoft', 'other'],
  ['adidxbot', 'Microsoft', 'other'],
  ['Applebot', 'Apple', 'search_engine'],
  ['YandexBot', 'Yandex', 'search_engine'],
  ['YandexImages', 'Yandex', 'search_engine'],
  ['YandexMobileBot', 'Yandex', 'search_engine'],
  ['Baiduspider', 'Baidu', 'search_engine'],
  ['DuckDuckBot', 'DuckDuckGo', 'search_engine'],
  ['Yahoo! Slurp', 'Yahoo', 'search_engine', 'Slurp'],
  ['SeznamBot', 'Seznam', 'search_engine'],
  ['Sogou', 'Sogou', 'search_engine', 'Sogou web spider'],
  ['360Spider', 'Qihoo 360', 'search_engine'],
  ['PetalBot', 'Huawei', 'search_engine'],
  ['Yeti', 'Naver', 'search_engine', 'Yeti/'],
  ['Qwantbot', 'Qwant', 'search_engine', 'Qwantify'],
  ['MojeekBot', 'Mojeek', 'search_engine'],
  ['coccocbot', 'Cốc Cốc', 'search_engine'],
  ['Exabot', 'Exalead', 'search_engine'],
  ['SeekportBot', 'Seekport', 'search_engine'],
  ['Mail.RU_Bot', 'Mail.ru', 'search_engine'],
  // SEO tools.
  ['AhrefsBot', 'Ahrefs', 'seo'],
  ['AhrefsSiteAudit', 'Ahrefs', 'seo'],
  ['SemrushBot', 'Semrush', 'seo'],
  ['SiteAuditBot', 'Semrush', 'seo'],
  ['MJ12bot', 'Majestic', 'seo'],
  ['DotBot', 'Moz', 'seo'],
  ['rogerbot', 'Moz', 'seo'],
  ['BLEXBot', 'WebMeUp', 'seo'],
  ['DataForSeoBot', 'DataForSEO', 'seo'],
  ['Barkrowler', 'Babbar', 'seo'],
  ['serpstatbot', 'Serpstat', 'seo'],
  ['SEOkicks', 'SEOkicks', 'seo'],
  ['MegaIndex', 'MegaIndex', 'seo', 'MegaIndex.ru'],
  ['linkdexbot', 'Linkdex', 'seo'],
  ['Screaming Frog SEO Spider', 'Screaming Frog', 'seo'],
  ['SEMrush', 'Semrush', 'seo', 'SEMrush'],
  ['spbot', 'OpenLinkProfiler', 'seo', 'spbot/'],
  // Monitors.
  ['UptimeRobot', 'UptimeRobot', 'monitor'],
  ['Pingdom', 'SolarWinds', 'monitor', 'Pingdom.com_bot'],
  ['StatusCake', 'StatusCake', 'monitor'],
  ['Site24x7', 'Zoho', 'monitor'],
  ['Better Uptime Bot', 'Better Stack', 'monitor'],
  ['Datadog Synthetics', 'Datadog', 'monitor', 'DatadogSynthetics'],
  ['NewRelicPinger', 'New Relic', 'monitor'],
  ['Amazon Route 53 Health Check', 'Amazon', 'monitor', 'Amazon-Route53-Health-Check-Service'],
  ['GoogleStackdriverMonitoring', 'Google', 'monitor'],
  ['Uptime-Kuma', 'Uptime Kuma', 'monitor'],
  ['Freshping', 'Freshworks', 'monitor'],
  ['Checkly', 'Checkly', 'monitor'],
  ['HetrixTools', 'HetrixTools', 'monitor'],
  ['Jetpack', 'Automattic', 'monitor', 'jetmon'],
  // Other bots: link previews, archives, feeds.
  ['facebookexternalhit', 'Meta', 'other'],
  ['meta-externalads', 'Meta', 'other'],
  ['OpenAI SDK', 'OpenAI', 'other', 'OpenAI/JS'],
  ['Scrapy', 'Scrapy (self-run)', 'other', 'Scrapy/'],
  ['Twitterbot', 'X', 'other'],
  ['LinkedInBot', 'LinkedIn', 'other'],
  ['Slackbot', 'Slack', 'other'],
  ['Discordbot', 'Discord', 'other'],
  ['TelegramBot', 'Telegram', 'other'],
  ['WhatsApp', 'Meta', 'other', 'WhatsApp/'],
  ['Pinterestbot', 'Pinterest', 'other'],
  ['archive.org_bot', 'Internet Archive', 'other'],
  ['ia_archiver', 'Alexa / Internet Archive', 'other'],
]

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Every known agent, in matching order. */
export const CRAWLER_AGENTS: readonly CrawlerAgent[] = ENTRIES.map(([name, operator, category, token]) => ({
  name,
  operator,
  category,
  pattern: new RegExp(escapeRegExp(token ?? name), 'i'),
}))

/** One regular expression over every token, for the fast path: one test per user agent. */
export const ANY_AGENT = new RegExp(CRAWLER_AGENTS.map((agent) => agent.pattern.source).join('|'), 'i')
