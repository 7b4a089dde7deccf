/**
 * A page URL as the recorder keeps it (the `href` of rrweb's Meta events): without its query string
 * unless the site tracks URL parameters, and without its fragment unless the script runs in hash mode
 * (`data-hash-mode`, where the fragment is the tracked path). Fragments carry tokens too
 * (`#access_token=...` of OAuth's implicit flow), and pageviews outside hash mode never include them.
 * A `?` inside the fragment is not a query string; a value that is not an absolute URL is treated alike.
 */
export function recordedUrl(href: string, keep: { query: boolean; fragment: boolean }): string {
  const hashAt = href.indexOf('#')
  const beforeHash = hashAt < 0 ? href : href.slice(0, hashAt)
  const fragment = hashAt < 0 || !keep.fragment ? '' : href.slice(hashAt)
  const queryAt = beforeHash.indexOf('?')
  const path = queryAt < 0 || keep.query ? beforeHash : beforeHash.slice(0, queryAt)
  return path + fragment
}
