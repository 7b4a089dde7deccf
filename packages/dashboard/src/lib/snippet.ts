/** The tracking snippet a site owner pastes into their pages. */

/**
 * @param origin where this Pathlight answers, e.g. 'https://stats.example.com' (no trailing slash)
 * @param siteId the site's numeric id
 */
export function trackingSnippet(origin: string, siteId: number): string {
  const base = origin.replace(/\/+$/, '')
  return `<script defer src="${base}/api/script.js" data-site-id="${siteId}"></script>`
}
