/**
 * `href` without its query string (`https://a.test/p?token=1#top` -> `https://a.test/p#top`): what the
 * recorder keeps of page URLs when the site does not track URL parameters. A value that is not an
 * absolute URL is treated alike; a `?` inside the fragment is not a query string.
 */
export function withoutQuery(href: string): string {
  const query = href.indexOf('?')
  const hash = href.indexOf('#')
  if (query < 0 || (hash >= 0 && hash < query)) return href
  return href.slice(0, query) + (hash < 0 ? '' : href.slice(hash))
}
