/**
 * Why tracking requests were not recorded, in words a site owner can act on: the reasons the server
 * counts (`reasonKey` of the server's `ingest/outcome.ts`, e.g. `bot:headless_browser`) mapped to what
 * happened and what to change.
 */

/** One reason explained: what happened, and what to do about it. */
export interface DropExplanation {
  reason: string
  count: number
  what: string
  fix: string
}

const EXPLANATIONS: Record<string, { what: string; fix: string }> = {
  'bot:headless_browser': {
    what: 'sent by a headless or automated browser (Puppeteer, Playwright, HeadlessChrome), which “Block bots” drops',
    fix: 'Open the page in an ordinary browser, or turn off “Block bots” in the site settings while you test.',
  },
  'bot:crawler': {
    what: 'sent by a crawler or a tool that says it is one, which “Block bots” drops',
    fix: 'Open the page in an ordinary browser, or turn off “Block bots” in the site settings while you test.',
  },
  'bot:empty_user_agent': {
    what: 'sent without a User-Agent header, which “Block bots” drops',
    fix: 'Send a User-Agent (or an API key: requests with a key are never blocked as bots).',
  },
  domain_mismatch: {
    what: 'sent from a page whose address is neither the site’s domain nor one of its subdomains',
    fix: 'Put the script on pages of the site’s domain, or change the domain in the site settings.',
  },
  excluded_ip: {
    what: 'sent from an address the site settings exclude',
    fix: 'Remove the address from the excluded IPs in the site settings if it should count.',
  },
  excluded_country: {
    what: 'sent from a country the site settings exclude',
    fix: 'Remove the country from the excluded countries in the site settings if it should count.',
  },
  over_quota: {
    what: 'over the site’s monthly pageview limit',
    fix: 'Raise or remove the monthly limit in the site settings.',
  },
  'disabled:trackOutbound': {
    what: 'outbound link clicks, which the site settings turn off',
    fix: 'Turn on “Outbound link clicks” in the site settings.',
  },
  'disabled:trackErrors': {
    what: 'JavaScript errors, which the site settings turn off',
    fix: 'Turn on error tracking in the site settings.',
  },
  'disabled:webVitals': {
    what: 'Core Web Vitals, which the site settings turn off',
    fix: 'Turn on Web Vitals in the site settings.',
  },
  'disabled:trackButtonClicks': {
    what: 'button clicks from Rybbit’s web SDK, which the site settings turn off',
    fix: 'Turn on “Button clicks” in the site settings.',
  },
  'disabled:trackCopy': {
    what: 'copied text from Rybbit’s web SDK, which the site settings turn off',
    fix: 'Turn on “Copied text” in the site settings.',
  },
  'disabled:trackFormInteractions': {
    what: 'form submits and input changes from Rybbit’s web SDK, which the site settings turn off',
    fix: 'Turn on “Form submits and input changes” in the site settings.',
  },
  'disabled:heatmaps': {
    what: 'heatmap clicks, which the site settings turn off',
    fix: 'Turn on “Heatmaps” in the site settings.',
  },
  access_denied: {
    what: 'sent with an API key whose owner is not a member of the site’s organization',
    fix: 'Use a key of a member of this site’s organization.',
  },
  invalid_api_key: {
    what: 'sent with an API key that does not exist, was deleted or has expired',
    fix: 'Create a new API key on your account page.',
  },
  key_scope: {
    what: 'sent with a read-only API key',
    fix: 'Use a key with the “track” or “full” scope.',
  },
  store_unavailable: {
    what: 'received while the server could not store events',
    fix: 'Check the server’s health (`/api/health`) and its log.',
  },
  repeated_event: {
    what: 'repeats of events already stored (the same event_id)',
    fix: 'Nothing: retries are expected to be dropped.',
  },
  no_session: {
    what: 'engagement (scroll depth, engaged time) of a page whose visit had ended, e.g. a tab left in the background for over 30 minutes',
    fix: 'Nothing: such late figures would count a visit without a pageview.',
  },
}

/**
 * The reasons of `byReason`, most frequent first, each with what happened and what to change; a reason
 * this version does not know is shown by its name.
 */
export function explainDrops(byReason: Record<string, number>): DropExplanation[] {
  return Object.entries(byReason)
    .sort(([, a], [, b]) => b - a)
    .map(([reason, count]) => ({
      reason,
      count,
      ...(EXPLANATIONS[reason] ?? { what: `refused (${reason})`, fix: 'See the server’s log for details.' }),
    }))
}
